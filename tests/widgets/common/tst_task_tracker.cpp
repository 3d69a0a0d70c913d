// TaskTracker and TaskPools: the newest request wins (an older result is never
// delivered and its token is cancelled), delivery happens on the receiver's
// thread only while the receiver lives, the pools' ParallelFor skips the
// bodies of a cancelled job, and an exception thrown in a job or one of its
// bodies ends as the request's failure, never at a thread's edge.

#include "tests/support/test_main.h"
#include "widgets/common/task_pools.h"
#include "widgets/common/task_tracker.h"

#include <QCoreApplication>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ks::widgets;

namespace {

// Work that runs until its request is cancelled, then says it saw the token.
auto untilCancelled(std::shared_ptr<std::atomic<bool>> sawCancel, int value)
{
    return [sawCancel, value](const TaskContext& job) {
        while (!job.cancelled())
            QThread::msleep(1);
        sawCancel->store(true);
        return value;
    };
}

// For requests that must not fail: a failure fails the test.
void mustNotFail(const TaskFailure& failure)
{
    QFAIL(qPrintable(QStringLiteral("unexpected job failure: ") + failure.message));
}

// Lets every finished job's result reach the GUI thread's event loop.
void drain(TaskPools& pools)
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
        TaskPools pools;
        QObject receiver;
        TaskTracker tracker(&pools, &receiver);
        std::vector<int> delivered;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        const TaskId first = tracker.start(
            untilCancelled(sawCancel, 1), [&](int v) { delivered.push_back(v); }, mustNotFail);
        const TaskId second = tracker.start(
            [](const TaskContext&) { return 2; }, [&](int v) { delivered.push_back(v); }, mustNotFail);
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
        TaskPools pools;
        QObject receiver;
        TaskTracker tracker(&pools, &receiver);
        std::vector<int> delivered;
        tracker.start(
            [](const TaskContext&) { return 1; }, [&](int v) { delivered.push_back(v); }, mustNotFail);
        pools.jobs()->waitForDone(); // done on its thread, not yet handed to the GUI thread
        QVERIFY(tracker.isRunning());
        tracker.start(
            [](const TaskContext&) { return 2; }, [&](int v) { delivered.push_back(v); }, mustNotFail);
        drain(pools);
        QCOMPARE(delivered, std::vector<int>({ 2 }));
    }

    void cancelDropsTheRunningRequest()
    {
        TaskPools pools;
        QObject receiver;
        TaskTracker tracker(&pools, &receiver);
        int deliveries = 0;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        tracker.start(
            untilCancelled(sawCancel, 1), [&](int) { ++deliveries; }, mustNotFail);
        QVERIFY(tracker.isRunning());
        tracker.cancel();
        QVERIFY(!tracker.isRunning());
        QTRY_VERIFY(sawCancel->load());
        drain(pools);
        QCOMPARE(deliveries, 0);
    }

    void destroyedReceiverGetsNothing()
    {
        TaskPools pools;
        auto receiver = std::make_unique<QObject>();
        TaskTracker tracker(&pools, receiver.get());
        std::atomic<bool> release { false };
        int deliveries = 0;
        tracker.start(
            [&release](const TaskContext&) {
                while (!release.load())
                    QThread::msleep(1);
                return 1;
            },
            [&](int) { ++deliveries; }, mustNotFail);
        receiver.reset(); // while the work still runs
        release.store(true);
        drain(pools);
        QCOMPARE(deliveries, 0);
    }

    void destroyedTrackerCancelsAndDeliversNothing()
    {
        TaskPools pools;
        QObject receiver;
        int deliveries = 0;
        auto sawCancel = std::make_shared<std::atomic<bool>>(false);
        {
            TaskTracker tracker(&pools, &receiver);
            tracker.start(
                untilCancelled(sawCancel, 1), [&](int) { ++deliveries; }, mustNotFail);
        }
        QTRY_VERIFY(sawCancel->load());
        drain(pools);
        QCOMPARE(deliveries, 0);
    }

    void deliveryIsOnTheReceiversThread()
    {
        TaskPools pools;
        QObject receiver;
        TaskTracker tracker(&pools, &receiver);
        QThread* workThread = nullptr;
        QThread* deliveryThread = nullptr;
        tracker.start([](const TaskContext&) { return QThread::currentThread(); },
            [&](QThread* worker) {
                workThread = worker;
                deliveryThread = QThread::currentThread();
            },
            mustNotFail);
        QTRY_VERIFY(deliveryThread != nullptr);
        QCOMPARE(deliveryThread, receiver.thread());
        QVERIFY(workThread != receiver.thread());
    }

    void parallelForRunsEveryBodyOnce()
    {
        TaskPools pools(3);
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
        TaskPools pools(2);
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

    // No exception leaves a job. One thrown by the work, or by a
    // parallelFor body on a worker thread, reaches fail() on the receiver's
    // thread (deliver() never runs), and the tracker and pools run the next
    // request as before.
    void failureOfAJobIsHandedToTheReceiver_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("outOfMemory");
        QTest::newRow("runtime_error") << 0 << QStringLiteral("broken input") << false;
        QTest::newRow("bad_alloc") << 1 << QStringLiteral("not enough memory") << true;
        QTest::newRow("not a std::exception") << 2 << QStringLiteral("an unknown exception") << false;
        QTest::newRow("bad_alloc in a worker's body") << 3 << QStringLiteral("not enough memory") << true;
        QTest::newRow("runtime_error in a worker's body") << 4 << QStringLiteral("broken body") << false;
    }

    void failureOfAJobIsHandedToTheReceiver()
    {
        QFETCH(int, kind);
        QFETCH(QString, message);
        QFETCH(bool, outOfMemory);
        TaskPools pools(2);
        QObject receiver;
        TaskTracker tracker(&pools, &receiver);
        auto workerThrew = std::make_shared<std::atomic<bool>>(false);
        int deliveries = 0;
        std::optional<TaskFailure> failure;
        QThread* failThread = nullptr;
        tracker.start(
            [kind, workerThrew](const TaskContext& job) -> int {
                switch (kind) {
                case 0:
                    throw std::runtime_error("broken input");
                case 1:
                    throw std::bad_alloc();
                case 2:
                    throw 42;
                default:
                    break;
                }
                // The job's own thread works slowly, so that the workers take bodies and throw there.
                QThread* jobThread = QThread::currentThread();
                job.parallelFor(10'000, [&](std::size_t) {
                    if (QThread::currentThread() == jobThread) {
                        QThread::usleep(200);
                        return;
                    }
                    workerThrew->store(true);
                    if (kind == 3)
                        throw std::bad_alloc();
                    throw std::runtime_error("broken body");
                });
                return 1;
            },
            [&](int) { ++deliveries; },
            [&](const TaskFailure& f) {
                failure = f;
                failThread = QThread::currentThread();
            });
        QTRY_VERIFY_WITH_TIMEOUT(failure.has_value(), 30'000);
        QCOMPARE(failure->message, message);
        QCOMPARE(failure->outOfMemory, outOfMemory);
        QCOMPARE(failThread, receiver.thread());
        QCOMPARE(workerThrew->load(), kind >= 3);
        QVERIFY(!tracker.isRunning());
        drain(pools);
        QCOMPARE(deliveries, 0);

        int next = 0;
        tracker.start(
            [](const TaskContext& job) {
                std::atomic<int> bodies { 0 };
                job.parallelFor(100, [&](std::size_t) { bodies.fetch_add(1); });
                return bodies.load();
            },
            [&](int bodies) { next = bodies; }, mustNotFail);
        QTRY_COMPARE_WITH_TIMEOUT(next, 100, 30'000);
    }

    void parallelForRethrowsOnTheCallerOnceEveryHelperStopped()
    {
        TaskPools pools(3);
        std::atomic<bool> returned { false };
        std::atomic<int> ran { 0 };
        std::atomic<int> ranAfterReturn { 0 };
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, pools.parallelFor()(100'000, [&](std::size_t i) {
            ran.fetch_add(1);
            QThread::usleep(50);
            if (returned.load())
                ranAfterReturn.fetch_add(1);
            if (i == 20)
                throw std::runtime_error("body 20");
        }));
        returned.store(true);
        pools.jobs()->waitForDone();
        QThread::msleep(20);
        QCOMPARE(ranAfterReturn.load(), 0); // the helpers had stopped when the caller saw the exception
        QVERIFY2(ran.load() < 100'000, qPrintable(QString::number(ran.load()))); // the rest was skipped
    }

    void nestedParallelForOnAJobFinishes()
    {
        // A job blocked in a ParallelFor whose bodies run ParallelFors themselves,
        // from more jobs than there are workers: the shape that once deadlocked.
        TaskPools pools(2);
        QObject receiver;
        std::vector<std::unique_ptr<TaskTracker>> trackers;
        std::atomic<int> delivered { 0 };
        for (int j = 0; j < 6; ++j) {
            trackers.push_back(std::make_unique<TaskTracker>(&pools, &receiver));
            trackers.back()->start(
                [](const TaskContext& job) {
                    std::atomic<int> sum { 0 };
                    job.parallelFor(8, [&](std::size_t) {
                        job.parallelFor(8, [&](std::size_t i) { sum.fetch_add(static_cast<int>(i)); });
                    });
                    return sum.load();
                },
                [&](int sum) {
                    QCOMPARE(sum, 8 * 28);
                    delivered.fetch_add(1);
                },
                mustNotFail);
        }
        QTRY_COMPARE_WITH_TIMEOUT(delivered.load(), 6, 30'000);
    }
};

KS_TEST_MAIN(tst_task_tracker, TestJobTracker)
#include "tst_task_tracker.moc"
