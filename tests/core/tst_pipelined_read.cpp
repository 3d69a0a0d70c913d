// Pipelined loading (inflate and split on a second thread) must build exactly
// the same store as the one-thread path: on every shared trace, on the real
// traces in tests/data, with small pieces, and it must stop cleanly on errors.

#include "app/common/thread_pool_parallel_for.h"
#include "core/io/args_reader.h"
#include "core/io/trace_set_loader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <fstream>
#include <map>
#include <sstream>

using namespace ks::core;

namespace {

LoadOptions pipelined(std::size_t chunkBytes)
{
    LoadOptions o;
    o.chunkBytes = chunkBytes;
    o.background = [] { return ks::app::makeThreadBackgroundWork(); };
    return o;
}

// Everything observable about a store, flattened for comparison.
std::string fingerprint(const RankTrace& t)
{
    std::ostringstream s;
    s << t.counts.events << '/' << t.slices.size() << '/' << t.links.size() << '/' << t.memory.size() << '/'
      << t.diagnostics.total() << '/' << t.startNs << '/' << t.endNs << '/' << t.metadata.rawKeys.size();
    for (const Track& track : t.tracks)
        s << '|' << t.name(track.name) << ':' << track.sliceCount();
    std::vector<std::uint32_t> sample;
    for (std::uint32_t i = 0; i < t.slices.size(); i += 97)
        sample.push_back(i);
    std::map<std::uint32_t, std::string> args; // re-read from the file
    if (auto err = forEachSliceArgs(
            t, sample, [&](std::uint32_t slice, std::string_view text) { args[slice] = std::string(text); }))
        s << "args error " << err->describe();
    for (std::uint32_t i : sample)
        s << '|' << t.slices.start[i] << ',' << t.slices.duration(i) << ',' << t.sliceName(i) << ','
          << t.slices.eventIndex[i] << ',' << args[i];
    return s.str();
}

QStringList traceFiles()
{
    QStringList files;
    for (const QString& root : { QStringLiteral(KS_SHARED_DIR "/traces"),
             QStringLiteral(KS_SOURCE_DIR "/tests/data/recorded_h100") }) {
        QDir dir(root);
        for (const QString& sub : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            for (const QString& f :
                QDir(dir.filePath(sub)).entryList({ QStringLiteral("*.gz") }, QDir::Files))
                files << dir.filePath(sub + QLatin1Char('/') + f);
        for (const QString& f : dir.entryList({ QStringLiteral("*.gz") }, QDir::Files))
            files << dir.filePath(f);
    }
    return files;
}

} // namespace

class TestPipelinedRead : public QObject
{
    Q_OBJECT

private slots:

    void sameStoreAsOneThread_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("chunkBytes");
        for (const QString& f : traceFiles()) {
            QTest::newRow(qPrintable(QFileInfo(f).fileName() + QStringLiteral("/4k"))) << f << 4096;
            QTest::newRow(qPrintable(QFileInfo(f).fileName() + QStringLiteral("/4M"))) << f << (4 << 20);
        }
        if (traceFiles().isEmpty())
            QTest::newRow("none") << QString() << 0;
    }

    void sameStoreAsOneThread()
    {
        QFETCH(QString, file);
        QFETCH(int, chunkBytes);
        if (file.isEmpty())
            QSKIP("no traces: ../shared/traces is absent");
        LoadOptions single;
        single.chunkBytes = static_cast<std::size_t>(chunkBytes);
        auto a = loadRankFile(file.toStdString(), single, nullptr, nullptr);
        auto b = loadRankFile(
            file.toStdString(), pipelined(static_cast<std::size_t>(chunkBytes)), nullptr, nullptr);
        QVERIFY(a.ok());
        QVERIFY(b.ok());
        QCOMPARE(fingerprint(b.value()), fingerprint(a.value()));
    }

    void stopsOnAnErrorInTheMiddle()
    {
        // Valid events, then garbage far enough in to be in a later piece.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("bad.json")).toStdString();
        std::ofstream f(path);
        f << R"({"traceEvents":[)";
        for (int i = 0; i < 20000; ++i)
            f << R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)" << i * 10 << R"(,"dur":5},)";
        f << "{\"ph\": \"X\", \"name\": }]}"; // the parser (not the splitter) rejects it
        f.close();
        auto r = loadRankFile(path, pipelined(4096), nullptr, nullptr);
        QVERIFY(!r.ok());
        QVERIFY(r.error().byteOffset.has_value());
        QVERIFY(*r.error().byteOffset > 4096);
        QVERIFY(r.error().describe().find(path) != std::string::npos);
    }

    void cancelStopsBothThreads()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("big.json")).toStdString();
        std::ofstream f(path);
        f << R"({"traceEvents":[)";
        for (int i = 0; i < 200000; ++i)
            f << (i ? "," : "") << R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)" << i * 10
              << R"(,"dur":5})";
        f << "]}";
        f.close();
        CancelToken cancel;
        cancel.cancel();
        auto r = loadRankFile(path, pipelined(4096), nullptr, &cancel);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Cancelled);
    }
};

QTEST_GUILESS_MAIN(TestPipelinedRead)
#include "tst_pipelined_read.moc"
