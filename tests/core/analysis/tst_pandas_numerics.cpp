// pandas/numpy numerics the HTA-compatible outputs rely on (hta-semantics §15).

#include "core/analysis/frame/intervals.h"
#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/tables/pandas_numerics.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cmath>

using namespace ks::core;

class TestPandasNumerics : public QObject
{
    Q_OBJECT

private slots:

    void roundsHalfToEven()
    {
        QCOMPARE(roundHalfEven(0.125, 2), 0.12); // binary 0.125 is exact: tie -> even
        QCOMPARE(roundHalfEven(0.375, 2), 0.38);
        QCOMPARE(roundHalfEven(2.5, 0), 2.0);
        QCOMPARE(roundHalfEven(12.3456, 2), 12.35);
    }

    void quantilesInterpolateLinearly()
    {
        const std::vector<double> v { 1, 2, 3, 4 };
        QCOMPARE(quantileSorted(v, 0.25), 1.75);
        QCOMPARE(quantileSorted(v, 0.5), 2.5);
        QCOMPARE(quantileSorted(v, 0.8), 3.4);
    }

    void describesLikePandas()
    {
        const Describe d = describe({ 4, 1, 3, 2, std::nan("") });
        QCOMPARE(d.count, 4);
        QCOMPARE(*d.mean, 2.5);
        QVERIFY(std::abs(*d.std - 1.2909944487358056) < 1e-15);
        QCOMPARE(*d.min, 1.0);
        QCOMPARE(*d.q75, 3.25);
        QVERIFY(!describe({ 5 }).std.has_value()); // one value: NaN std
    }

    void pairwiseSumMatchesNumpyBlocks()
    {
        std::vector<double> v;
        for (int i = 0; i < 1000; ++i)
            v.push_back(0.1 * i);
        QVERIFY(std::abs(pairwiseSum(v) - 49950.0) < 1e-9);
    }

    void mergesTouchingIntervals()
    {
        const auto merged = mergeIntervals({ { 10, 20 }, { 0, 5 }, { 20, 25 }, { 5, 6 }, { 30, 31 } });
        QCOMPARE(merged.size(), std::size_t(3)); // [0,6] [10,25] [30,31]
        QCOMPARE(totalLength(merged), 6 + 15 + 1);
    }

    void classifiesKernelsLikeHta()
    {
        QCOMPARE(classifyKernelHta("ncclDevKernel_AllReduce"), KernelType::Communication);
        QCOMPARE(classifyKernelHta("hipMemcpyAsync"), KernelType::Communication); // Q7: every hip* name
        QCOMPARE(classifyKernelHta("Memcpy HtoD (Pageable -> Device)"), KernelType::Memory);
        QCOMPARE(classifyKernelHta("void at::native::admaxpool_kernel"), KernelType::Other); // contains "dma"
        QCOMPARE(classifyKernelHta("Stream Sync"), KernelType::Other);
        QCOMPARE(classifyKernelHta("volta_sgemm_128x32_nn"), KernelType::Computation);
        QCOMPARE(
            classifyKernelDefault("kernel", "void at::native::admaxpool_kernel"), KernelType::Computation);
        QCOMPARE(classifyKernelDefault("cuda_sync", "Stream Sync"), KernelType::Other);
        QCOMPARE(memoryKernelSubType("Memcpy DtoH (Device -> Pageable)"), std::string("Memcpy DtoH"));
        QCOMPARE(memoryKernelSubType("Memset (Device)"), std::string("Memset"));
    }
};

KS_TEST_MAIN(tst_pandas_numerics, TestPandasNumerics)
#include "tst_pandas_numerics.moc"
