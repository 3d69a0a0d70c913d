// Parallel loading parses pieces on worker threads and builds the store from
// them in piece order: wherever the pieces are cut (inside a B/E pair, between
// a flow's start and end, between a launch and its kernel, inside a run of
// metadata events) the store must equal the one-thread load exactly, and
// errors must be the ones the one-thread load reports.

#include "app/common/thread_pool_parallel_for.h"
#include "core/common/run_shares.h"
#include "core/io/trace_set_loader.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QFile>
#include <QTest>

#include <stdexcept>
#include <system_error>

using namespace ks::core;
using ks::test::fingerprint;

namespace {

LoadOptions threaded(std::size_t chunkBytes, std::size_t workers)
{
    LoadOptions o;
    o.chunkBytes = chunkBytes;
    o.background = [] { return ks::app::makeThreadBackgroundWork(); };
    o.parseWorkers = workers;
    return o;
}

// A document with every kind of event whose meaning depends on another event,
// each pair a few events apart so that some cut falls between them (see the
// file). Names with escapes check that the batches keep their own copy of
// unescaped strings.
QByteArray awkwardDocument()
{
    QFile f(QStringLiteral(KS_SOURCE_DIR "/tests/data/awkward_pieces.json"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestParallelRead : public QObject
{
    Q_OBJECT

private slots:

    // The built trace really has what the cuts must not break.
    void theTraceHasEveryAwkwardPair()
    {
        const QByteArray doc = awkwardDocument();
        QVERIFY(!doc.isEmpty());
        auto r = ks::test::loadJson(doc);
        QVERIFY(r.ok());
        const RankTrace& t = r.value();
        const auto outer = ks::test::slicesNamed(t, "outer \"step\" \xc3\xa9");
        QCOMPARE(outer.size(), std::size_t(1));
        QCOMPARE(t.slices.duration(outer[0]), std::int64_t(100'000));
        QCOMPARE(ks::test::slicesNamed(t, "inner").size(), std::size_t(1));
        std::size_t launches = 0, fwdbwd = 0;
        for (std::size_t k = 0; k < t.links.size(); ++k) {
            launches += t.links.kind[k] == LinkKind::LaunchFlow;
            fwdbwd += t.links.kind[k] == LinkKind::ForwardBackward;
        }
        QCOMPARE(launches, std::size_t(1));
        QCOMPARE(fwdbwd, std::size_t(1));
        QVERIFY(ks::test::trackNamed(t, "thread 2 (worker renamed)").has_value());
        QVERIFY(ks::test::trackNamed(t, "thread tA (backward)").has_value());
        QCOMPARE(t.memory.size(), std::size_t(1));
        QCOMPARE(ks::test::diag(t, DiagnosticKind::UnknownPhase), std::uint64_t(1));
    }

    // Pieces of one event, two, three... up to the whole array, on one worker
    // and on three: the same store as one thread reading the file whole.
    void cutsAnywhereGiveTheSameStore()
    {
        ks::test::TraceDir dir;
        const QByteArray doc = awkwardDocument();
        const std::string path = ks::test::toStd(dir.write(QStringLiteral("awkward.json"), doc));
        auto whole = loadRankFile(path, LoadOptions {}, nullptr, nullptr);
        QVERIFY(whole.ok());
        const std::string expected = fingerprint(whole.value());
        // Events are 50-190 bytes: steps of 16 bytes give every count of events per piece.
        for (std::size_t chunk = 1; chunk <= static_cast<std::size_t>(doc.size()); chunk += 16) {
            for (std::size_t workers : { 1, 3 }) {
                auto r = loadRankFile(path, threaded(chunk, workers), nullptr, nullptr);
                QVERIFY(r.ok());
                if (fingerprint(r.value()) != expected)
                    QFAIL(qPrintable(QStringLiteral("pieces of %1 bytes, %2 workers: the store differs")
                                         .arg(chunk)
                                         .arg(workers)));
            }
        }
    }

    // Two bad events in different pieces and a truncated end: the first bad
    // event is reported, as the one-thread load reports it.
    void theFirstErrorInFileOrderWins()
    {
        QByteArray events;
        for (int i = 0; i < 3000; ++i)
            events += R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)"
                + QByteArray::number(i * 10) + R"(,"dur":5},)";
        events += R"({"ph":"X","name": },)"; // the parser rejects it
        for (int i = 0; i < 3000; ++i)
            events += R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)"
                + QByteArray::number(i * 10) + R"(,"dur":5},)";
        events += R"({"ph":"X","ts": tru},)";
        ks::test::TraceDir dir;
        const QByteArray doc = R"({"traceEvents":[)" + events; // and no end
        const std::string path = ks::test::toStd(dir.write(QStringLiteral("bad.json"), doc));
        LoadOptions one;
        one.chunkBytes = 4096;
        auto expected = loadRankFile(path, one, nullptr, nullptr);
        QVERIFY(!expected.ok());
        QVERIFY(expected.error().byteOffset.has_value());
        QVERIFY(*expected.error().byteOffset > 4096);
        for (std::size_t workers : { 1, 2, 4 }) {
            auto r = loadRankFile(path, threaded(4096, workers), nullptr, nullptr);
            QVERIFY(!r.ok());
            QCOMPARE(ks::test::bytes(r.error().describe()), ks::test::bytes(expected.error().describe()));
        }
    }

    // A folder's ranks load side by side with one parse thread each; the
    // option asks for workers, and the stores are still those of one thread.
    void aFolderLoadsTheSameWithWorkersAsked()
    {
        ks::test::TraceDir dir;
        dir.write(QStringLiteral("ranks/rank0.json"), awkwardDocument());
        dir.write(QStringLiteral("ranks/rank1.json"), awkwardDocument());
        const std::vector<std::string> folder { ks::test::toStd(dir.filePath(QStringLiteral("ranks"))) };
        auto one = loadTraceSet(folder, LoadOptions {}, nullptr, nullptr);
        auto many = loadTraceSet(folder, threaded(64, 4), nullptr, nullptr,
            [](std::size_t n, const std::function<void(std::size_t)>& body) {
                ks::app::parallelForOnThreads(n, body, 2);
            });
        QVERIFY(one.ok());
        QVERIFY(many.ok());
        QCOMPARE(many.value().ranks.size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i)
            QCOMPARE(ks::test::bytes(fingerprint(*many.value().ranks[i])),
                ks::test::bytes(fingerprint(*one.value().ranks[i])));
    }

    // The builder's per-track work runs in shares on helper threads: every share
    // runs once, a helper that gets no thread has its share run on the calling
    // thread, and an exception in any share reaches the caller after all ended.
    void sharesRunOnceAndFailuresReachTheCaller()
    {
        struct NoThread final : ks::core::BackgroundWork
        {
            void start(std::function<void()>) override
            {
                throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
            }

            void wait() override {}
        };

        auto real = ks::app::makeThreadBackgroundWork();
        NoThread none;
        const std::vector<ks::core::BackgroundWork*> helpers { real.get(), &none };
        std::vector<int> ran(3, 0);
        ks::core::runShares(helpers, [&](std::size_t w) { ++ran[w]; });
        QCOMPARE(ran, (std::vector<int> { 1, 1, 1 }));

        std::vector<int> finished(3, 0);
        bool thrown = false;
        try {
            ks::core::runShares(helpers, [&](std::size_t w) {
                if (w == 1)
                    throw std::runtime_error("share 1 failed");
                finished[w] = 1;
            });
        } catch (const std::runtime_error& e) {
            thrown = std::string(e.what()) == "share 1 failed";
        }
        QVERIFY(thrown);
        QCOMPARE(finished, (std::vector<int> { 1, 0, 1 }));
    }
};

KS_TEST_MAIN(tst_parallel_read, TestParallelRead)
#include "tst_parallel_read.moc"
