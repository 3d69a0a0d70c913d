// JobTracker and JobPools: the newest request wins (an older result is never
// delivered and its token is cancelled), delivery happens on the receiver's
// thread only while the receiver lives, and the pools' ParallelFor skips the
// bodies of a cancelled job.

#include "widgets/common/job_pools.h"
#include "widgets/common/job_tracker.h"

#include <QCoreApplication>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

using namespace ks::widgets;

namespace {

// Work that runs until its request is cancelled, then says it saw the token.
auto untilCancelled(std::shared_ptr<std::atomic<bool>> sawCancel, int value)
{
    return [sawCancel, value](const JobContext& job) {
        while (!job.cancelled())
            QThread::msleep(1);
        sawCancel->store(true);
        return value;
    };
}

// Lets every finished job's result reach the GUI thread's event loop.
void drain(JobPools& pools)
{
    pools.jobs()->waitForDone();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
}

} // namespace

class TestJobTracker : public QObject
{
    Q_OBJECT

private slots:

    void newerRequestSupersedesOlder()
    {
        JobPools pools;
        QObject receiver;
        JobTracker tracker(&pools, &receiver);
        std::vector<int> delivered;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        const JobId first =
            tracker.start(untilCancelled(sawCancel, 1), [&](int v) { delivered.push_back(v); });
        const JobId second =
            tracker.start([](const JobContext&) { return 2; }, [&](int v) { delivered.push_back(v); });
        QVERIFY(second != first);
        QCOMPARE(tracker.current(), second);
        QTRY_VERIFY(sawCancel->load()); // the older work saw its token and stopped
        QTRY_COMPARE(delivered, std::vector<int>({ 2 }));
        QVERIFY(!tracker.isRunning());
        drain(pools);
        QCOMPARE(delivered, std::vector<int>({ 2 })); // the older result never arrives
    }

    void finishedButUndeliveredResultIsDroppedWhenSuperseded()
    {
        JobPools pools;
        QObject receiver;
        JobTracker tracker(&pools, &receiver);
        std::vector<int> delivered;
        tracker.start([](const JobContext&) { return 1; }, [&](int v) { delivered.push_back(v); });
        pools.jobs()->waitForDone(); // done on its thread, not yet handed to the GUI thread
        QVERIFY(tracker.isRunning());
        tracker.start([](const JobContext&) { return 2; }, [&](int v) { delivered.push_back(v); });
        drain(pools);
        QCOMPARE(delivered, std::vector<int>({ 2 }));
    }

    void cancelDropsTheRunningRequest()
    {
        JobPools pools;
        QObject receiver;
        JobTracker tracker(&pools, &receiver);
        int deliveries = 0;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        tracker.start(untilCancelled(sawCancel, 1), [&](int) { ++deliveries; });
        QVERIFY(tracker.isRunning());
        tracker.cancel();
        QVERIFY(!tracker.isRunning());
        QTRY_VERIFY(sawCancel->load());
        drain(pools);
        QCOMPARE(deliveries, 0);
    }

    void destroyedReceiverGetsNothing()
    {
        JobPools pools;
        auto receiver = std::make_unique<QObject>();
        JobTracker tracker(&pools, receiver.get());
        std::atomic<bool> release { false };
        int deliveries = 0;
        tracker.start(
            [&release](const JobContext&) {
                while (!release.load())
                    QThread::msleep(1);
                return 1;
            },
            [&](int) { ++deliveries; });
        receiver.reset(); // while the work still runs
        release.store(true);
        drain(pools);
        QCOMPARE(deliveries, 0);
    }

    void destroyedTrackerCancelsAndDeliversNothing()
    {
        JobPools pools;
        QObject receiver;
        int deliveries = 0;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        {
            JobTracker tracker(&pools, &receiver);
            tracker.start(untilCancelled(sawCancel, 1), [&](int) { ++deliveries; });
        }
        QTRY_VERIFY(sawCancel->load());
        drain(pools);
        QCOMPARE(deliveries, 0);
    }

    void deliveryIsOnTheReceiversThread()
    {
        JobPools pools;
        QObject receiver;
        JobTracker tracker(&pools, &receiver);
        QThread* workThread = nullptr;
        QThread* deliveryThread = nullptr;
        tracker.start([](const JobContext&) { return QThread::currentThread(); },
            [&](QThread* worker) {
                workThread = worker;
                deliveryThread = QThread::currentThread();
            });
        QTRY_VERIFY(deliveryThread != nullptr);
        QCOMPARE(deliveryThread, receiver.thread());
        QVERIFY(workThread != receiver.thread());
    }

    void parallelForRunsEveryBodyOnce()
    {
        JobPools pools(3);
        std::mutex mutex;
        std::multiset<std::size_t> seen;
        pools.parallelFor()(200, [&](std::size_t i) {
            std::lock_guard lock(mutex);
            seen.insert(i);
        });
        QCOMPARE(seen.size(), std::size_t(200));
        for (std::size_t i = 0; i < 200; ++i)
            QCOMPARE(seen.count(i), std::size_t(1));
    }

    void parallelForSkipsBodiesOnceCancelled()
    {
        JobPools pools(2);
        ks::core::CancelToken token;
        std::atomic<int> ran { 0 };
        pools.parallelFor (&token)(1000, [&](std::size_t) {
            ran.fetch_add(1);
            token.cancel();
        });
        // Bodies already begun on other threads when the token fired may finish; no more start.
        QVERIFY2(ran.load() <= 3, qPrintable(QString::number(ran.load())));
        QVERIFY(ran.load() >= 1);
    }

    void nestedParallelForOnAJobFinishes()
    {
        // A job blocked in a ParallelFor whose bodies run ParallelFors themselves,
        // from more jobs than there are workers: the shape that once deadlocked.
        JobPools pools(2);
        QObject receiver;
        std::vector<std::unique_ptr<JobTracker>> trackers;
        std::atomic<int> delivered { 0 };
        for (int j = 0; j < 6; ++j) {
            trackers.push_back(std::make_unique<JobTracker>(&pools, &receiver));
            trackers.back()->start(
                [](const JobContext& job) {
                    std::atomic<int> sum { 0 };
                    job.parallelFor(8, [&](std::size_t) {
                        job.parallelFor(8, [&](std::size_t i) { sum.fetch_add(static_cast<int>(i)); });
                    });
                    return sum.load();
                },
                [&](int sum) {
                    QCOMPARE(sum, 8 * 28);
                    delivered.fetch_add(1);
                });
        }
        QTRY_COMPARE_WITH_TIMEOUT(delivered.load(), 6, 30'000);
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_job_tracker.moc"
