// The same content must load identically whatever carries it: chunk sizes
// (events and strings cut at chunk and read-block boundaries), plain JSON,
// gzip, multi-member gzip, ISA-L or zlib.

#include "core/io/gzip/inflated_size.h"
#include "core/io/gzip/input_stream.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QRandomGenerator>
#include <QTest>

#include <mutex>
#include <thread>

using namespace ks::core;
using ks::test::fingerprint;
using ks::test::TraceDir;

class TestReaderStreams : public QObject
{
    Q_OBJECT

private:
    TraceDir m_dir;
    std::string m_reference;

private slots:
    void initTestCase();
    void chunkSizes_data();
    void chunkSizes();
    void compressions_data();
    void compressions();
    void plainNamedGz();
    void isalAndZlibInflateTheSameBytes();
    void plainStream();
    void progressIsMonotonic();
    void folderLoadsInParallelLikeSequentially();
    void jsonSizeGuessedPastFourGiB();
};

// moc reads raw string literals as ordinary strings and trips on the JSON
// inside them: fixtures and slot bodies are kept out of its sight.
#ifndef Q_MOC_RUN

namespace {

// About 2.5 MB of varied events: several 1 MiB read blocks and hundreds of
// 4 KiB chunks, with strings holding brackets, escapes and UTF-8, nested args,
// every phase, and events on GPU and CPU tracks with flows between them.
QByteArray variedTrace()
{
    QRandomGenerator rng(12345);
    QByteArray ev;
    ev.reserve(3 << 20);
    auto sep = [&ev] {
        if (!ev.isEmpty())
            ev += ",\n";
    };
    const qint64 base = 1712195495000000;
    for (int i = 0; i < 9000; ++i) {
        const qint64 cpuTs = base + i * 20;
        const QByteArray ts =
            QByteArray::number(cpuTs) + '.' + QByteArray::number(rng.bounded(1000)).rightJustified(3, '0');
        const QByteArray corr = QByteArray::number(i);
        sep();
        ev += R"({"ph": "X", "cat": "cpu_op", "name": "aten::op_)" + QByteArray::number(i % 37)
            + R"( \"q\" ]}[{ \u00e9 \u2603", "pid": 100, "tid": )" + QByteArray::number(100 + i % 3)
            + R"(, "ts": )" + ts + R"(, "dur": 15.5, "args": {"External id": )" + corr
            + R"(, "Input Dims": [[1, 2], [3]], "Input type": ["float", "[{"], "Sequence number": )"
            + QByteArray::number(i) + "}}";
        sep();
        ev += R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": )"
            + QByteArray::number(100 + i % 3) + R"(, "ts": )" + QByteArray::number(cpuTs + 1)
            + R"(, "dur": 2, "args": {"correlation": )" + corr + R"(, "External id": )" + corr + "}}";
        sep();
        ev +=
            R"j({"ph": "X", "cat": "kernel", "name": "void kernel<float, 128>(float const*, float*)", "pid": 0, "tid": )j"
            + QByteArray::number(7 + i % 2) + R"(, "ts": )" + QByteArray::number(cpuTs + 5)
            + R"(.125, "dur": 3.333, "args": {"stream": )" + QByteArray::number(7 + i % 2)
            + R"(, "correlation": )" + corr + R"(, "grid": [1, 2, 3], "block": [128, 1, 1]}})";
        if (i % 2 == 0) {
            sep();
            ev += R"({"ph": "s", "id": )" + corr + R"(, "pid": 100, "tid": )"
                + QByteArray::number(100 + i % 3) + R"(, "ts": )" + QByteArray::number(cpuTs + 1)
                + R"(, "cat": "ac2g", "name": "ac2g"})";
            sep();
            ev += R"({"ph": "f", "id": )" + corr + R"(, "pid": 0, "tid": )" + QByteArray::number(7 + i % 2)
                + R"(, "ts": )" + QByteArray::number(cpuTs + 5)
                + R"(.125, "cat": "ac2g", "name": "ac2g", "bp": "e"})";
        }
        if (i % 10 == 0) {
            sep();
            ev +=
                R"({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 100, "tid": 100, "ts": )"
                + ts + R"(, "args": {"Total Reserved": 2097152, "Total Allocated": )"
                + QByteArray::number(i * 512)
                + R"(, "Bytes": 512, "Addr": 94000000, "Device Id": 0, "Device Type": 1}})";
            sep();
            ev += R"({"ph": "C", "name": "Queue", "pid": 0, "ts": )" + ts + R"(, "args": {"len": )"
                + QByteArray::number(i % 5) + "}}";
            sep();
            ev += R"({"ph": "B", "name": "range \"B\"", "pid": 100, "tid": 200, "ts": )" + ts + R"(})";
            sep();
            ev += R"({"ph": "E", "pid": 100, "tid": 200, "ts": )" + QByteArray::number(cpuTs + 10) + R"(})";
        }
    }
    sep();
    ev += R"({"name": "thread_name", "ph": "M", "pid": 0, "tid": 7, "args": {"name": "stream 7"}})";
    return ks::test::kinetoDoc(
        ev, R"( "deviceProperties": [{"id": 0, "name": "GPU ]}"}], "distributedInfo": {"rank": 2},)");
}

const QByteArray& trace()
{
    static const QByteArray t = variedTrace();
    return t;
}

Result<RankTrace> loadFile(const QString& path, std::size_t chunkBytes, bool preferZlib)
{
    LoadOptions options;
    options.chunkBytes = chunkBytes;
    options.preferZlib = preferZlib;
    return loadRankFile(ks::test::toStd(path), options, nullptr, nullptr);
}

class RecordingSink final : public ProgressSink
{
public:
    void report(const LoadProgress& p) override
    {
        std::lock_guard lock(mutex);
        reports.push_back({ std::string(p.stage), p.bytesDone, p.bytesTotal });
    }

    struct Entry
    {
        std::string stage;
        std::uint64_t done;
        std::uint64_t total;
    };

    std::mutex mutex;
    std::vector<Entry> reports;
};

} // namespace

void TestReaderStreams::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(trace().size() > (2 << 20));
    const QString plain = m_dir.write(QStringLiteral("plain.json"), trace());
    QVERIFY(!plain.isEmpty());
    auto r = loadFile(plain, LoadOptions {}.chunkBytes, false);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    const RankTrace& t = r.value();
    // Sanity of the reference itself, so a broken reader cannot agree with itself.
    QCOMPARE(t.counts.events, 9000ull * 3 + 4500 * 2 + 900 * 4 + 1);
    QCOMPARE(t.slices.size(), std::size_t(9000 * 3 + 900));
    QCOMPARE(t.links.size(), std::size_t(9000));
    QCOMPARE(t.memory.size(), std::size_t(900));
    QCOMPARE(t.counterPoints(), std::size_t(900));
    QCOMPARE(t.rank, std::int64_t(2));
    QCOMPARE(t.counts.jsonBytes, std::uint64_t(trace().size()));
    QVERIFY(!t.counts.gzip);
    m_reference = fingerprint(t);
}

void TestReaderStreams::chunkSizes_data()
{
    QTest::addColumn<int>("chunkBytes");
    QTest::newRow("minimum 4096") << 4096;
    QTest::newRow("4097") << 4097;
    QTest::newRow("65521 (prime)") << 65521;
    QTest::newRow("1 MiB") << (1 << 20);
    QTest::newRow("bigger than the file") << (16 << 20);
    QTest::newRow("below the minimum") << 1;
}

void TestReaderStreams::chunkSizes()
{
    QFETCH(int, chunkBytes);
    auto r = loadFile(m_dir.filePath(QStringLiteral("plain.json")), std::size_t(chunkBytes), false);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    QCOMPARE(fingerprint(r.value()), m_reference);
}

void TestReaderStreams::compressions_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("preferZlib");
    QTest::addColumn<int>("chunkBytes");
    const QByteArray gz = ks::test::gzipMember(trace());
    const QByteArray gzFast = ks::test::gzipMember(trace(), 1);
    // Members cut at arbitrary bytes: inside strings, numbers, between events.
    const QByteArray multi =
        ks::test::gzipMembers(trace(), { 1, 17, 4096, 100001, 1 << 20, (1 << 20) + 3, 2000000 });
    const QByteArray padded = gz + QByteArray(64, '\0');
    for (bool zlib : { true, false }) {
        const char* engine = zlib ? "zlib" : "auto (ISA-L when built with it)";
        QTest::addRow("gzip, %s", engine) << gz << zlib << (4 << 20);
        QTest::addRow("gzip level 1, %s", engine) << gzFast << zlib << (4 << 20);
        QTest::addRow("gzip, 4 KiB chunks, %s", engine) << gz << zlib << 4096;
        QTest::addRow("multi-member gzip, %s", engine) << multi << zlib << (4 << 20);
        QTest::addRow("multi-member gzip, 4 KiB chunks, %s", engine) << multi << zlib << 4096;
        QTest::addRow("gzip with zero padding, %s", engine) << padded << zlib << (4 << 20);
    }
}

void TestReaderStreams::compressions()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, preferZlib);
    QFETCH(int, chunkBytes);
    // Named .json: gzip is recognised by its magic bytes, not by the name.
    const QString path = m_dir.write(QStringLiteral("compressed.json"), bytes);
    auto r = loadFile(path, std::size_t(chunkBytes), preferZlib);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    QVERIFY(r.value().counts.gzip);
    QCOMPARE(r.value().counts.fileBytes, std::uint64_t(bytes.size()));
    QCOMPARE(fingerprint(r.value()), m_reference);
}

void TestReaderStreams::plainNamedGz()
{
    const QString path = m_dir.write(QStringLiteral("actually-plain.json.gz"), trace());
    auto r = loadFile(path, LoadOptions {}.chunkBytes, false);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    QVERIFY(!r.value().counts.gzip);
    QCOMPARE(fingerprint(r.value()), m_reference);
}

void TestReaderStreams::isalAndZlibInflateTheSameBytes()
{
    if (!isalAvailable())
        QSKIP("built without ISA-L: only the zlib engine exists");
    const QString path =
        m_dir.write(QStringLiteral("engines.json.gz"), ks::test::gzipMembers(trace(), { 777777 }));
    QByteArray inflated[2];
    const InflateBackend backends[2] = { InflateBackend::Zlib, InflateBackend::Isal };
    const char* names[2] = { "zlib", "isa-l" };
    for (int k = 0; k < 2; ++k) {
        auto in = openInputStream(ks::test::toStd(path), backends[k]);
        QVERIFY(in.ok());
        QVERIFY(in.value()->isGzip());
        QCOMPARE(QByteArray(in.value()->backendName()), QByteArray(names[k]));
        std::vector<char> buf(65536 + k * 1000); // different read sizes too
        for (;;) {
            auto n = in.value()->read(buf.data(), buf.size());
            QVERIFY2(n.ok(), n.ok() ? "" : n.error().describe().c_str());
            if (n.value() == 0)
                break;
            inflated[k].append(buf.data(), qsizetype(n.value()));
        }
        QCOMPARE(in.value()->fileBytesRead(), in.value()->fileBytesTotal());
    }
    QCOMPARE(inflated[0].size(), trace().size());
    QVERIFY(inflated[0] == trace());
    QVERIFY(inflated[1] == trace());
    // And through the whole loader, the ISA-L path (preferZlib off) is covered by compressions().
}

void TestReaderStreams::plainStream()
{
    const QString path = m_dir.filePath(QStringLiteral("plain.json"));
    auto in = openInputStream(ks::test::toStd(path), InflateBackend::Auto);
    QVERIFY(in.ok());
    QVERIFY(!in.value()->isGzip());
    QCOMPARE(QByteArray(in.value()->backendName()), QByteArray("plain"));
    QCOMPARE(in.value()->fileBytesTotal(), std::uint64_t(trace().size()));
}

void TestReaderStreams::progressIsMonotonic()
{
    const QString path = m_dir.write(QStringLiteral("progress.json.gz"), ks::test::gzipMember(trace()));
    RecordingSink sink;
    LoadOptions options;
    options.chunkBytes = 4096;
    auto r = loadRankFile(ks::test::toStd(path), options, &sink, nullptr);
    QVERIFY(r.ok());
    QVERIFY(!sink.reports.empty());
    const std::uint64_t size = QFileInfo(path).size();
    std::uint64_t last = 0;
    for (const auto& e : sink.reports) {
        QVERIFY(!e.stage.empty());
        QCOMPARE(e.total, size); // compressed bytes for .gz
        QVERIFY(e.done >= last);
        QVERIFY(e.done <= e.total);
        last = e.done;
    }
    QCOMPARE(last, size);
}

// Ranks of a folder loaded on several threads give the same stores as one
// after another (the core has no shared mutable state between ranks).
void TestReaderStreams::folderLoadsInParallelLikeSequentially()
{
    TraceDir dir;
    const QByteArray gz = ks::test::gzipMember(trace());
    for (int r = 0; r < 4; ++r)
        QVERIFY(!dir.write(QStringLiteral("part-%1.json.gz").arg(r), gz).isEmpty());
    const ParallelFor threads = [](std::size_t n, const std::function<void(std::size_t)>& body) {
        std::vector<std::thread> pool;
        for (std::size_t i = 0; i < n; ++i)
            pool.emplace_back(body, i);
        for (auto& th : pool)
            th.join();
    };
    RecordingSink sink;
    auto set = loadTraceSet({ ks::test::toStd(dir.path()) }, LoadOptions {}, &sink, nullptr, threads);
    QVERIFY2(set.ok(), set.ok() ? "" : set.error().describe().c_str());
    QCOMPARE(set.value().ranks.size(), std::size_t(4));
    QVERIFY(set.value().failures.empty());
    for (const auto& rank : set.value().ranks)
        QCOMPARE(fingerprint(*rank), m_reference);
    // All four claim rank 2 in distributedInfo: all kept, the clash reported once.
    QCOMPARE(set.value().folderDiagnostics.count(DiagnosticKind::DuplicateRank), 1ull);
    // Folder progress adds up the files' bytes.
    QVERIFY(!sink.reports.empty());
    QCOMPARE(sink.reports.back().total, std::uint64_t(4 * gz.size()));
}

#endif // Q_MOC_RUN

// The size guess that reserves the columns: a trailer holds the size modulo
// 4 GiB, so a 4.5 GB rank's trailer says 225 MB (sizes of the benchmark's ranks).
void TestReaderStreams::jsonSizeGuessedPastFourGiB()
{
    using ks::core::inflatedSizeFromTrailer;
    constexpr std::uint64_t kWrap = std::uint64_t { 1 } << 32;
    // Small files: the trailer is the size, unless under 13 x the file.
    QCOMPARE(inflatedSizeFromTrailer(1'014'000'000, 76'264'374), std::uint64_t { 1'014'000'000 });
    QCOMPARE(inflatedSizeFromTrailer(800'000'000, 100'000'000), std::uint64_t { 1'300'000'000 });
    // diff_control x136: 229.6 MB of gzip, 4.52 GB of JSON.
    const std::uint64_t real = 4'520'000'000;
    QCOMPARE(inflatedSizeFromTrailer(real - kWrap, 229'600'242), real);
    // synth 4.7 GB: 350.9 MB of gzip.
    const std::uint64_t synth = 4'682'000'000;
    QCOMPARE(inflatedSizeFromTrailer(synth - kWrap, 350'866'197), synth);
    // Past 8 GiB the trailer has wrapped twice.
    const std::uint64_t huge = 9'500'000'000;
    QCOMPARE(inflatedSizeFromTrailer(huge - 2 * kWrap, 700'000'000), huge);
}

KS_TEST_MAIN(tst_reader_streams, TestReaderStreams)
#include "tst_reader_streams.moc"
