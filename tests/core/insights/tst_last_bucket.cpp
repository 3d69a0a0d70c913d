// What overlapping leaves exposed (core/insights/last_bucket.h): one bucket per
// iteration with exposed communication, a bucket's cost measured on the
// collectives that ran hidden, never more than the iteration's exposed time.

#include "core/insights/last_bucket.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks::core;

class TestLastBucket : public QObject
{
    Q_OBJECT

private slots:

    void oneBucketPerIterationAtTheHiddenOnesMedianTransfer()
    {
        // Iteration 1: a hidden bucket (transfer 10) and an exposed one of 50 on the path.
        // Iteration 2: a hidden bucket (transfer 14), an exposed one of 30 and one of 4.
        // Iteration 3: a hidden bucket (transfer 12) only.
        const std::vector<PathCollective> collectives { { 1, 12, 12, 10 }, { 1, 50, 0, 40 }, { 2, 15, 9, 14 },
            { 2, 30, 0, 30 }, { 2, 4, 0, 4 }, { 3, 13, 13, 12 } };
        const LastBucket last = lastBucketLeft(collectives);
        QVERIFY(last.bucket);
        QCOMPARE(*last.bucket, TimeNs { 12 }); // median of 10, 14, 12
        QCOMPARE(last.overlapped, std::size_t { 3 });
        // Exposed: iteration 1 50, iteration 2 6 + 30 + 4 (its hidden bucket left 6
        // uncovered), iteration 3 none: one bucket each for the first two.
        QCOMPARE(last.iterations, std::size_t { 2 });
        QCOMPARE(last.left, TimeNs { 12 + 12 });
    }

    void atMostTheIterationsExposedTime()
    {
        const std::vector<PathCollective> collectives { { 0, 100, 100, 40 }, { 0, 15, 0, 15 } };
        const LastBucket last = lastBucketLeft(collectives);
        QVERIFY(last.bucket);
        QCOMPARE(*last.bucket, TimeNs { 40 });
        QCOMPARE(last.left, TimeNs { 15 });
    }

    void nothingHiddenMeasuresNoBucket()
    {
        const std::vector<PathCollective> collectives { { 0, 100, 20, 80 }, { 1, 100, 0, 80 } };
        const LastBucket last = lastBucketLeft(collectives);
        QVERIFY(!last.bucket);
        QCOMPARE(last.overlapped, std::size_t { 0 });
        QCOMPARE(last.iterations, std::size_t { 2 });
        QCOMPARE(last.left, TimeNs { 0 });
    }
};

KS_TEST_MAIN(tst_last_bucket, TestLastBucket)
#include "tst_last_bucket.moc"
