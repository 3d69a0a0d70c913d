// Pipelined loading (inflate and split on a second thread) and parallel
// loading (pieces parsed on worker threads as well) must build exactly the same
// store as the one-thread path: on every shared trace, on the real traces in
// tests/data, with small pieces, and they must stop cleanly on errors.

#include "app/common/thread_pool_parallel_for.h"
#include "core/io/load_timeline.h"
#include "core/io/trace_set_loader.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

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

LoadOptions parallel(std::size_t chunkBytes, std::size_t workers)
{
    LoadOptions o = pipelined(chunkBytes);
    o.parseWorkers = workers;
    return o;
}

// The first line where two store dumps differ, for a readable failure.
QByteArray firstDifference(const std::string& got, const std::string& expected)
{
    std::istringstream g(got), e(expected);
    std::string gl, el;
    for (int line = 1;; ++line) {
        const bool gotMore = static_cast<bool>(std::getline(g, gl));
        const bool expectedMore = static_cast<bool>(std::getline(e, el));
        if (!gotMore && !expectedMore)
            return "no difference";
        if (gl != el || gotMore != expectedMore)
            return QByteArray("line ") + QByteArray::number(line) + ": got '" + QByteArray::fromStdString(gl)
                + "', expected '" + QByteArray::fromStdString(el) + "'";
    }
}

// Pipelined (workers 0) or parallel.
LoadOptions threaded(std::size_t chunkBytes, int workers)
{
    return workers == 0 ? pipelined(chunkBytes) : parallel(chunkBytes, static_cast<std::size_t>(workers));
}

void addThreadedModes()
{
    QTest::addColumn<int>("workers");
    QTest::newRow("pipelined") << 0;
    QTest::newRow("parallel, 1 worker") << 1;
    QTest::newRow("parallel, 3 workers") << 3;
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
        QVERIFY(a.ok());
        const std::string expected = ks::test::fingerprint(a.value());
        const auto chunk = static_cast<std::size_t>(chunkBytes);
        for (int workers : { 0, 1, 3 }) {
            auto b = loadRankFile(file.toStdString(), threaded(chunk, workers), nullptr, nullptr);
            QVERIFY(b.ok());
            const std::string got = ks::test::fingerprint(b.value());
            QVERIFY2(got == expected, firstDifference(got, expected).constData());
        }
    }

    // B1's per-stage timeline: a timed load builds the same store, and each
    // stage is counted on the thread that runs it.
    void timelineFollowsTheStagesAndChangesNothing()
    {
        const QStringList files = traceFiles();
        if (files.isEmpty())
            QSKIP("no traces: ../shared/traces is absent");
        const std::string file = files.front().toStdString();
        auto plain = loadRankFile(file, LoadOptions {}, nullptr, nullptr);
        QVERIFY(plain.ok());
        const std::string expected = ks::test::fingerprint(plain.value());
        for (bool twoThreads : { false, true }) {
            LoadOptions o = twoThreads ? pipelined(4096) : LoadOptions {};
            o.chunkBytes = 4096;
            LoadTimeline timeline;
            o.timeline = &timeline;
            auto timed = loadRankFile(file, o, nullptr, nullptr);
            QVERIFY(timed.ok());
            QCOMPARE(ks::test::fingerprint(timed.value()), expected);
            const LoadLane reader = twoThreads ? LoadLane::Reading : LoadLane::Calling;
            QVERIFY(timeline.seconds(reader, LoadStage::Inflate) > 0);
            QVERIFY(timeline.seconds(LoadLane::Calling, LoadStage::Parse) > 0);
            QVERIFY(timeline.seconds(LoadLane::Calling, LoadStage::Layout) > 0);
            QVERIFY(timeline.seconds(LoadLane::Calling, LoadStage::Build) > 0);
            if (twoThreads) {
                QCOMPARE(timeline.seconds(LoadLane::Reading, LoadStage::Parse), 0.0);
                QCOMPARE(timeline.seconds(LoadLane::Calling, LoadStage::Inflate), 0.0);
            }
            // Every moment of a lane is in exactly one stage: the stages add up to at most the wall time.
            for (LoadLane lane : { LoadLane::Calling, LoadLane::Reading }) {
                double sum = 0;
                for (std::size_t s = 0; s < kLoadStageCount; ++s)
                    sum += timeline.seconds(lane, static_cast<LoadStage>(s));
                QVERIFY(sum <= timeline.wallSeconds() + 1e-6);
            }
            const std::vector<char> strip = timeline.strip(LoadLane::Calling, 32);
            QCOMPARE(strip.size(), std::size_t { 32 });
            QVERIFY(
                std::string(strip.begin(), strip.end()).find_first_not_of("ISPBLw.") == std::string::npos);
        }
    }

    void stopsOnAnErrorInTheMiddle_data() { addThreadedModes(); }

    void stopsOnAnErrorInTheMiddle()
    {
        QFETCH(int, workers);
        // Valid events, then garbage far enough in to be in a later piece.
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("bad.json")).toStdString();
        std::ofstream f(path);
        f << R"({"traceEvents":[)";
        for (int i = 0; i < 20000; ++i)
            f << R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)" << i * 10 << R"(,"dur":5},)";
        f << "{\"ph\": \"X\", \"name\": }]}"; // the parser (not the splitter) rejects it
        f.close();
        auto r = loadRankFile(path, threaded(4096, workers), nullptr, nullptr);
        QVERIFY(!r.ok());
        QVERIFY(r.error().byteOffset.has_value());
        QVERIFY(*r.error().byteOffset > 4096);
        QVERIFY(r.error().describe().find(path) != std::string::npos);
    }

    void cancelStopsBothThreads_data() { addThreadedModes(); }

    void cancelStopsBothThreads()
    {
        QFETCH(int, workers);
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
        auto r = loadRankFile(path, threaded(4096, workers), nullptr, &cancel);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, ErrorCode::Cancelled);
    }

    // An exception that escapes the work ends neither the thread
    // nor the process: wait() rethrows it to the thread that waits, once.
    void backgroundThreadHandsAnEscapedExceptionToWait()
    {
        for (bool outOfMemory : { false, true }) {
            auto work = ks::app::makeThreadBackgroundWork();
            work->start([outOfMemory] {
                if (outOfMemory)
                    throw std::bad_alloc();
                throw std::runtime_error("escaped");
            });
            if (outOfMemory)
                QVERIFY_THROWS_EXCEPTION(std::bad_alloc, work->wait());
            else
                QVERIFY_THROWS_EXCEPTION(std::runtime_error, work->wait());
            work->wait(); // handed over once: waiting again is quiet
        }
    }
};

KS_TEST_MAIN(tst_pipelined_read, TestPipelinedRead)
#include "tst_pipelined_read.moc"
