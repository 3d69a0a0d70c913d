// Bad input (product spec L6): each class gives its error code and a message
// naming the file (and the byte offset where that helps); never a crash, hang
// or silent empty result. Recoverable anomalies are counted as diagnostics.

#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QTest>

#include <fcntl.h>
#include <future>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace ks::core;
using ks::test::toStd;
using ks::test::TraceDir;

Q_DECLARE_METATYPE(ks::core::ErrorCode)

class TestBadInput : public QObject
{
    Q_OBJECT

private slots:
    void fatalErrors_data();
    void fatalErrors();
    void wrongFieldTypes();
    void emptyFolder();
    void noSuchPath();
    void unreadableFile();
    void danglingSymlinkInFolder();
    void folderGivenAsFile();
    void fifoDoesNotHang();
    void oneCorruptRankOfThree();
    void cancelledBeforeLoading();
    void cancelledWhileLoading();
    void invalidAtomInsideEvent();
    void hugeTopLevelValueRejected();
};

// moc reads raw string literals as ordinary strings and trips on the JSON
// inside them: fixtures and slot bodies are kept out of its sight.
#ifndef Q_MOC_RUN

namespace {

constexpr qint64 kNoOffset = -1;
constexpr qint64 kSomeOffset = -2;
constexpr qint64 kAnyOffset = -3;

const QByteArray kValid = ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 11, "ts": 1000.5, "dur": 20},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1012, "dur": 3, "args": {"stream": 7}})");

// Enough events to need many 4 KiB chunks.
QByteArray manyEvents(int n)
{
    QByteArray ev;
    for (int i = 0; i < n; ++i) {
        if (i)
            ev += ",\n";
        ev += R"({"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": )"
            + QByteArray::number(i * 10) + R"(, "dur": 5})";
    }
    return ks::test::kinetoDoc(ev);
}

QByteArray corruptCrc(QByteArray gz)
{
    gz[gz.size() - 8] = char(gz[gz.size() - 8] ^ 0x5A);
    return gz;
}

QByteArray badBlockType(QByteArray gz)
{
    gz[10] = char(0xFF); // first deflate block header: BTYPE = 11 (reserved)
    return gz;
}

// Cancels on the first progress report.
class CancelOnProgress final : public ProgressSink
{
public:
    explicit CancelOnProgress(CancelToken& token)
        : m_token(token)
    {
    }

    void report(const LoadProgress&) override { m_token.cancel(); }

private:
    CancelToken& m_token;
};

} // namespace

void TestBadInput::fatalErrors_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<ErrorCode>("code");
    QTest::addColumn<bool>("preferZlib");
    // offset: >= 0 the exact byte; kNoOffset none; kSomeOffset one, any value; kAnyOffset not checked.
    QTest::addColumn<qint64>("offset");

    const QByteArray gz = ks::test::gzipMember(manyEvents(2000));
    for (bool zlib : { true, false }) {
        const char* e = zlib ? "zlib" : "auto";
        QTest::addRow("truncated gzip (half), %s", e)
            << gz.left(gz.size() / 2) << ErrorCode::TruncatedGzip << zlib << kAnyOffset;
        QTest::addRow("truncated gzip (no trailer), %s", e)
            << gz.left(gz.size() - 4) << ErrorCode::TruncatedGzip << zlib << kAnyOffset;
        QTest::addRow("truncated gzip (header only), %s", e)
            << gz.left(12) << ErrorCode::TruncatedGzip << zlib << kAnyOffset;
        QTest::addRow("corrupt gzip (bad block), %s", e)
            << badBlockType(gz) << ErrorCode::CorruptGzip << zlib << kAnyOffset;
        QTest::addRow("corrupt gzip (bad crc), %s", e)
            << corruptCrc(gz) << ErrorCode::CorruptGzip << zlib << kAnyOffset;
        QTest::addRow("corrupt gzip (garbage after member), %s", e)
            << gz + QByteArray("garbage!") << ErrorCode::CorruptGzip << zlib << kAnyOffset;
    }
    QTest::newRow("not JSON: text") << QByteArray("hello world\n") << ErrorCode::NotJson << false
                                    << qint64(0);
    QTest::newRow("not JSON: html") << QByteArray("\n  <html><body>404</body></html>") << ErrorCode::NotJson
                                    << false << qint64(3);
    const QByteArray badEvent = R"({"traceEvents": [{"ph": "X"}, @, {"ph": "X"}]})";
    QTest::newRow("not JSON: bad event")
        << badEvent << ErrorCode::NotJson << false << qint64(badEvent.indexOf('@'));
    QTest::newRow("not JSON: gzip of text")
        << ks::test::gzipMember("this is not json") << ErrorCode::NotJson << false << qint64(0);
    QTest::newRow("not JSON: missing comma")
        << QByteArray(R"({"a": 1 "traceEvents": []})") << ErrorCode::NotJson << false << qint64(8);
    QTest::newRow("not JSON: document cut") << QByteArray(R"({"traceEvents": [{"ph": "X", "name": "a")")
                                            << ErrorCode::NotJson << false << kSomeOffset;
    QTest::newRow("not JSON: missing comma inside an event")
        << QByteArray(R"({"traceEvents": [{"ph": "X", "name": "a" "ts": 1}]})") << ErrorCode::NotJson << false
        << kSomeOffset;
    QTest::newRow("not JSON: trailing data")
        << QByteArray(R"({"traceEvents": []} {"x": 1})") << ErrorCode::NotJson << false << qint64(20);
    QTest::newRow("no traceEvents") << QByteArray(R"({"schemaVersion": 1, "deviceProperties": []})")
                                    << ErrorCode::NoTraceEvents << false << kNoOffset;
    QTest::newRow("no traceEvents: empty object")
        << QByteArray("{}") << ErrorCode::NoTraceEvents << false << kNoOffset;
    QTest::newRow("traceEvents is an object")
        << QByteArray(R"({"traceEvents": {}})") << ErrorCode::WrongType << false << qint64(16);
    QTest::newRow("traceEvents is a string") << QByteArray(R"({"schemaVersion": 1, "traceEvents": "[]"})")
                                             << ErrorCode::WrongType << false << qint64(36);
    QTest::newRow("empty file") << QByteArray() << ErrorCode::EmptyFile << false << kNoOffset;
    QTest::newRow("empty gzip") << ks::test::gzipMember(QByteArray()) << ErrorCode::EmptyFile << false
                                << kNoOffset;
}

void TestBadInput::fatalErrors()
{
    QFETCH(QByteArray, bytes);
    QFETCH(ErrorCode, code);
    QFETCH(bool, preferZlib);
    QFETCH(qint64, offset);
    TraceDir dir;
    LoadOptions options;
    options.preferZlib = preferZlib;
    options.chunkBytes = 4096;
    auto r = dir.load(QStringLiteral("rank-0.pt.trace.json"), bytes, options);
    QVERIFY(!r.ok());
    const Error& e = r.error();
    QCOMPARE(errorCodeName(e.code), errorCodeName(code));
    const std::string path = toStd(dir.filePath(QStringLiteral("rank-0.pt.trace.json")));
    QCOMPARE(e.path, path);
    QVERIFY2(e.describe().find(path) != std::string::npos, e.describe().c_str());
    QVERIFY(!e.message.empty());
    if (offset == kNoOffset)
        QVERIFY2(!e.byteOffset.has_value(), e.describe().c_str());
    if (offset == kSomeOffset)
        QVERIFY2(e.byteOffset.has_value(), e.describe().c_str());
    if (offset >= 0) {
        QVERIFY2(e.byteOffset.has_value(), e.describe().c_str());
        QCOMPARE(qint64(*e.byteOffset), offset);
        QVERIFY(e.describe().find("at byte " + std::to_string(offset)) != std::string::npos);
    }
    // Through the set loader (a single file): the same error, not an empty set.
    auto set = loadTraceSet({ path }, options, nullptr, nullptr);
    QVERIFY(!set.ok());
    QCOMPARE(errorCodeName(set.error().code), errorCodeName(code));
}

// Not fatal: counted per kind with an example, and the event is not lost
// from the counts.
void TestBadInput::wrongFieldTypes()
{
    auto r = ks::test::loadJson(ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "bad ts", "pid": 1, "tid": 1, "ts": "abc", "dur": 1},
  {"ph": "X", "name": "bad pid", "pid": [1], "tid": 1, "ts": 5, "dur": 1},
  {"ph": "X", "name": "string ts", "pid": 1, "tid": 1, "ts": "12.5", "dur": 1},
  {"ph": "X", "name": 42, "pid": 1, "tid": 1, "ts": 20, "dur": 1},
  {"ph": "X", "name": "no ts", "pid": 1, "tid": 1, "dur": 1},
  {"ph": "X", "name": "negative", "pid": 1, "tid": 1, "ts": 30, "dur": -4},
  {"name": "no ph", "pid": 1, "tid": 1, "ts": 40},
  {"ph": "Z", "name": "unknown phase", "pid": 1, "tid": 1, "ts": 50},
  7, "text", null,
  {"ph": "X", "name": "fine", "pid": 1, "tid": 1, "ts": 60, "dur": 1})"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    const RankTrace& t = r.value();
    QCOMPARE(t.counts.events, 12ull);
    // bad ts, bad pid, string ts, name 42, three non-objects.
    QCOMPARE(ks::test::diag(t, DiagnosticKind::WrongFieldType), 7ull);
    const auto& wrong = t.diagnostics.entry(DiagnosticKind::WrongFieldType);
    QCOMPARE(wrong.exampleEventIndex, std::int64_t(0));
    QVERIFY2(wrong.example.find("ts") != std::string::npos, wrong.example.c_str());
    // bad ts (unusable) and no ts: skipped as missing; no ph: missing.
    QVERIFY(ks::test::diag(t, DiagnosticKind::MissingField) >= 3);
    QCOMPARE(ks::test::diag(t, DiagnosticKind::NegativeDuration), 1ull);
    QCOMPARE(ks::test::diag(t, DiagnosticKind::UnknownPhase), 1ull);
    QCOMPARE(t.counts.byPhase[std::size_t(Phase::Other)], 5ull); // no ph, Z, three non-objects
    // Kept: bad pid, string ts (12.5 µs), name 42, negative (as 0), fine.
    QCOMPARE(t.slices.size(), std::size_t(5));
    const auto stringTs = ks::test::slicesNamed(t, "string ts");
    QCOMPARE(stringTs.size(), std::size_t(1));
    QCOMPARE(t.slices.start[stringTs[0]], TimeNs(12500));
    const auto negative = ks::test::slicesNamed(t, "negative");
    QCOMPARE(negative.size(), std::size_t(1));
    QCOMPARE(t.slices.duration(negative[0]), TimeNs(0));
    QVERIFY(t.slices.flags[negative[0]] & kSliceNegativeDuration);
}

void TestBadInput::emptyFolder()
{
    TraceDir dir;
    auto r = loadTraceSet({ toStd(dir.path()) }, {}, nullptr, nullptr);
    QVERIFY(!r.ok());
    QCOMPARE(errorCodeName(r.error().code), errorCodeName(ErrorCode::EmptyFolder));
    QVERIFY(r.error().describe().find(toStd(dir.path())) != std::string::npos);

    // Files that are not traces do not count.
    dir.write(QStringLiteral("notes.txt"), "hello");
    dir.write(QStringLiteral(".hidden.json"), kValid);
    QDir(dir.path()).mkdir(QStringLiteral("sub.json"));
    auto r2 = loadTraceSet({ toStd(dir.path()) }, {}, nullptr, nullptr);
    QVERIFY(!r2.ok());
    QCOMPARE(errorCodeName(r2.error().code), errorCodeName(ErrorCode::EmptyFolder));
}

void TestBadInput::noSuchPath()
{
    TraceDir dir;
    const std::string missing = toStd(dir.filePath(QStringLiteral("missing.json")));
    auto r = loadRankFile(missing, {}, nullptr, nullptr);
    QVERIFY(!r.ok());
    QCOMPARE(errorCodeName(r.error().code), errorCodeName(ErrorCode::Unreadable));
    QVERIFY(r.error().describe().find(missing) != std::string::npos);
    auto set = loadTraceSet({ missing }, {}, nullptr, nullptr);
    QVERIFY(!set.ok());
    QCOMPARE(errorCodeName(set.error().code), errorCodeName(ErrorCode::Unreadable));
}

void TestBadInput::unreadableFile()
{
    TraceDir dir;
    const QString path = dir.write(QStringLiteral("rank-0.json"), kValid);
    QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
    if (::access(path.toLocal8Bit().constData(), R_OK) == 0)
        QSKIP(
            "running as root: chmod 000 does not stop reading (dangling links and folders are tested below)");
    auto r = loadRankFile(toStd(path), {}, nullptr, nullptr);
    QVERIFY(!r.ok());
    QCOMPARE(errorCodeName(r.error().code), errorCodeName(ErrorCode::Unreadable));
    QVERIFY(r.error().describe().find(toStd(path)) != std::string::npos);
}

void TestBadInput::danglingSymlinkInFolder()
{
    TraceDir dir;
    dir.write(QStringLiteral("rank-0.json"), kValid);
    const QString link = dir.filePath(QStringLiteral("rank-1.json"));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("gone.json")), link));
    auto r = loadTraceSet({ toStd(dir.path()) }, {}, nullptr, nullptr);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    QCOMPARE(r.value().ranks.size(), std::size_t(1));
    QCOMPARE(r.value().failures.size(), std::size_t(1));
    const Error& e = r.value().failures[0];
    QCOMPARE(errorCodeName(e.code), errorCodeName(ErrorCode::Unreadable));
    QCOMPARE(e.path, toStd(link));
}

void TestBadInput::folderGivenAsFile()
{
    TraceDir dir;
    const QString sub = dir.filePath(QStringLiteral("rank-0.json"));
    QVERIFY(QDir().mkdir(sub));
    auto r = loadRankFile(toStd(sub), {}, nullptr, nullptr);
    QVERIFY(!r.ok());
    QCOMPARE(errorCodeName(r.error().code), errorCodeName(ErrorCode::Unreadable));
    QVERIFY(r.error().describe().find(toStd(sub)) != std::string::npos);
}

// A FIFO (or any file that blocks on open/read) must not hang the load.
void TestBadInput::fifoDoesNotHang()
{
    TraceDir dir;
    const QString fifo = dir.filePath(QStringLiteral("rank-0.json"));
    QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
    auto future =
        std::async(std::launch::async, [p = toStd(fifo)] { return loadRankFile(p, {}, nullptr, nullptr); });
    const bool finished = future.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
    if (!finished) {
        // Unblock the reader (open for writing, then close: it sees end of file).
        const int fd = ::open(fifo.toLocal8Bit().constData(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0)
            ::close(fd);
        future.wait();
        QFAIL("loading a FIFO blocked for 5 s (opened it for reading without checking the file type)");
    }
    auto r = future.get();
    QVERIFY(!r.ok());
    QVERIFY(r.error().describe().find(toStd(fifo)) != std::string::npos);
}

void TestBadInput::oneCorruptRankOfThree()
{
    TraceDir dir;
    const QByteArray gz = ks::test::gzipMember(kValid);
    dir.write(QStringLiteral("rank-0.json.gz"), gz);
    const QString bad = dir.write(QStringLiteral("rank-1.json.gz"), gz.left(gz.size() - 10));
    dir.write(QStringLiteral("rank-2.json"), kValid);
    auto r = loadTraceSet({ toStd(dir.path()) }, {}, nullptr, nullptr);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    const TraceSet& set = r.value();
    QCOMPARE(set.ranks.size(), std::size_t(2));
    QCOMPARE(set.ranks[0]->rank, std::int64_t(0));
    QCOMPARE(set.ranks[1]->rank, std::int64_t(2));
    QCOMPARE(set.failures.size(), std::size_t(1));
    QCOMPARE(set.failures[0].path, toStd(bad));
    QCOMPARE(errorCodeName(set.failures[0].code), errorCodeName(ErrorCode::TruncatedGzip));
    QVERIFY(set.failures[0].describe().find(toStd(bad)) != std::string::npos);
}

void TestBadInput::cancelledBeforeLoading()
{
    TraceDir dir;
    const QString path = dir.write(QStringLiteral("rank-0.json"), manyEvents(2000));
    CancelToken token;
    token.cancel();
    LoadOptions options;
    options.chunkBytes = 4096;
    auto one = loadRankFile(toStd(path), options, nullptr, &token);
    QVERIFY(!one.ok());
    QCOMPARE(errorCodeName(one.error().code), errorCodeName(ErrorCode::Cancelled));
    auto set = loadTraceSet({ toStd(dir.path()) }, options, nullptr, &token);
    QVERIFY(!set.ok());
    QCOMPARE(errorCodeName(set.error().code), errorCodeName(ErrorCode::Cancelled));
}

void TestBadInput::cancelledWhileLoading()
{
    TraceDir dir;
    const QByteArray big = manyEvents(300000); // ~20 MB: progress is reported every 4 MB read
    dir.write(QStringLiteral("rank-0.json"), big);
    dir.write(QStringLiteral("rank-1.json.gz"), ks::test::gzipMember(big, 1));
    LoadOptions options;
    options.chunkBytes = 4096;
    for (const char* name : { "rank-0.json", "rank-1.json.gz" }) {
        CancelToken token;
        CancelOnProgress sink(token);
        auto r = loadRankFile(toStd(dir.filePath(QLatin1String(name))), options, &sink, &token);
        QVERIFY2(!r.ok(), name);
        QCOMPARE(errorCodeName(r.error().code), errorCodeName(ErrorCode::Cancelled));
    }
    // A folder: cancelled while the first rank loads.
    CancelToken token;
    CancelOnProgress sink(token);
    auto set = loadTraceSet({ toStd(dir.path()) }, options, &sink, &token);
    QVERIFY(!set.ok());
    QCOMPARE(errorCodeName(set.error().code), errorCodeName(ErrorCode::Cancelled));
}

// Garbage inside an event that the on-demand parser never materialises must
// still not pass silently: either the load fails as not JSON, or the field
// is reported.
void TestBadInput::invalidAtomInsideEvent()
{
    auto r = ks::test::loadJson(
        R"({"traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": tru}]})");
    if (!r.ok()) {
        QCOMPARE(errorCodeName(r.error().code), errorCodeName(ErrorCode::NotJson));
        return;
    }
    QVERIFY(r.value().diagnostics.count(DiagnosticKind::WrongFieldType)
            + r.value().diagnostics.count(DiagnosticKind::MissingField)
        > 0);
}

// A top-level value other than traceEvents that keeps growing is refused
// with TooLarge (256 MB limit) instead of growing the buffer without end.
// Built cheaply: a 1 MiB run of 'a' compressed once (~1 KB) and repeated as
// gzip members (600 MiB inflated, ~0.6 MB on disk).
void TestBadInput::hugeTopLevelValueRejected()
{
    TraceDir dir;
    const QByteArray run = ks::test::gzipMember(QByteArray(1 << 20, 'a'), 9);
    QByteArray file = ks::test::gzipMember(R"({"schemaVersion": 1, "huge": ")");
    for (int i = 0; i < 600; ++i)
        file += run;
    file += ks::test::gzipMember(R"(", "traceEvents": []})");
    QVERIFY(file.size() < 2 << 20);
    auto r = dir.load(QStringLiteral("huge.json.gz"), file);
    QVERIFY(!r.ok());
    QCOMPARE(errorCodeName(r.error().code), errorCodeName(ErrorCode::TooLarge));
    QVERIFY(r.error().describe().find("huge") != std::string::npos);
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_bad_input, TestBadInput)
#include "tst_bad_input.moc"
