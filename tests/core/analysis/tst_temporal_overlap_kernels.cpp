// A1 temporal breakdown, A3 GPU kernel breakdown and A4 comm/comp overlap on tiny
// traces written here: hand-computed numbers, and HTA's quirks Q3, Q5, Q7 in both modes.

#include "core/analysis/hta/comm_comp_overlap.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/hta/kernel_breakdown_support.h"
#include "core/analysis/hta/temporal_breakdown.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <optional>
#include <string>

using namespace ks;
using core::AnalysisMode;

namespace {

// A complete event; times in µs relative to tests::kBaseUs (where the cpu_op fixes the aligned zero).
std::string slice(const std::string& cat, const std::string& name, std::int64_t ts, std::int64_t dur, int tid,
    const std::string& args = "{}")
{
    const bool device = cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "cuda_sync";
    return tests::eventAtBase(cat, name, ts, dur, args, device ? 0 : 100, tid);
}

std::string onStream(
    const std::string& cat, const std::string& name, std::int64_t ts, std::int64_t dur, int stream)
{
    return slice(cat, name, ts, dur, stream, R"({"stream":)" + std::to_string(stream) + "}");
}

std::string kernel(const std::string& name, std::int64_t ts, std::int64_t dur, int stream = 7)
{
    return onStream("kernel", name, ts, dur, stream);
}

std::string cpuOp(std::int64_t ts, std::int64_t dur)
{
    return slice("cpu_op", "aten::step", ts, dur, 100);
}

// Compute [0,10] and relu [30,33]+[33,40] (touching, merged), comm [5,15], memcpy [20,25].
std::vector<std::string> mainEvents()
{
    return { cpuOp(0, 40), kernel("gemm", 0, 10), onStream("kernel", "ncclKernel_AllReduce", 5, 10, 9),
        onStream("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 20, 5, 8), kernel("relu", 30, 3),
        kernel("relu", 33, 7) };
}

struct Outputs
{
    core::AnalysisOutput temporal;
    core::AnalysisOutput kernels;
    core::AnalysisOutput overlap;
};

Outputs analyse(const core::TraceSet& set, AnalysisMode mode, int numKernels = 10)
{
    const core::FrameSet frames = tests::frames(set, mode);
    core::AnalysisOptions options;
    options.mode = mode;
    options.kernels.numKernels = numKernels;
    return { core::temporalBreakdown(frames, options), core::gpuKernelBreakdown(frames, options),
        core::commCompOverlap(frames, options) };
}

const core::Table& frameOf(const core::AnalysisOutput& out, std::size_t item)
{
    if (!out.ok)
        qFatal("not applicable: %s", out.error.c_str());
    return out.result.kind == core::HtaResult::Kind::Tuple ? out.result.items.at(item).frame
                                                           : out.result.frame;
}

// The row whose text column equals `key` (and whose rank matches, when given).
std::vector<core::Cell> rowWhere(
    const core::Table& table, const std::string& column, const std::string& key, std::int64_t rank = -1)
{
    const std::size_t c = table.columnIndex(column);
    const std::size_t r = table.columnIndex("rank");
    for (const auto& row : table.rows)
        if (core::cellAsText(row[c]) == key
            && (rank < 0 || core::cellAsDouble(row[r]) == static_cast<double>(rank)))
            return row.cells();
    qFatal("no row %s", key.c_str());
}

std::vector<core::Cell> rankRow(const core::Table& table, std::int64_t rank)
{
    for (const auto& row : table.rows)
        if (core::cellAsDouble(row[0]) == static_cast<double>(rank))
            return row.cells();
    qFatal("no rank %lld", static_cast<long long>(rank));
}

// Temporal values in column order: idle, compute, non-compute, kernel (µs), then the three percentages.
std::vector<double> temporalValues(const core::AnalysisOutput& out, std::int64_t rank = 0)
{
    const core::Table& t = frameOf(out, 0);
    std::vector<double> values;
    for (std::size_t c = 1; c < t.columns.size(); ++c)
        values.push_back(core::cellAsDouble(rankRow(t, rank)[c]).value_or(NAN));
    return values;
}

double typeSum(const core::AnalysisOutput& out, const std::string& label)
{
    const core::Table& t = frameOf(out, 0);
    return core::cellAsDouble(rowWhere(t, "kernel_type", label)[1]).value();
}

// name → sum, max, min, stddev, mean (µs)
std::vector<double> kernelStats(
    const core::AnalysisOutput& out, const std::string& name, std::int64_t rank = 0)
{
    const core::Table& t = frameOf(out, 1);
    const auto& row = rowWhere(t, "name", name, rank);
    return { *core::cellAsDouble(row[1]), *core::cellAsDouble(row[2]), *core::cellAsDouble(row[3]),
        *core::cellAsDouble(row[4]), *core::cellAsDouble(row[5]) };
}

std::optional<double> overlapOf(const core::AnalysisOutput& out, std::int64_t rank = 0)
{
    return core::cellAsDouble(rankRow(frameOf(out, 0), rank)[1]);
}

bool hasType(const core::AnalysisOutput& out, const std::string& label)
{
    const core::Table& t = frameOf(out, 0);
    return std::any_of(
        t.rows.begin(), t.rows.end(), [&](const auto& row) { return core::cellAsText(row[0]) == label; });
}

bool near(const std::vector<double>& got, const std::vector<double>& expected)
{
    return tests::near(got, expected, 1e-9);
}

QString describe(const std::vector<double>& v)
{
    QString s;
    for (double x : v)
        s += QString::number(x, 'g', 12) + QLatin1Char(' ');
    return s;
}

#define COMPARE_VALUES(got, ...)                                                                             \
    do {                                                                                                     \
        const std::vector<double> g_ = (got);                                                                \
        const std::vector<double> e_ = __VA_ARGS__;                                                          \
        QVERIFY2(near(g_, e_), qPrintable(describe(g_) + QStringLiteral("!= ") + describe(e_)));             \
    } while (false)

} // namespace

class TestTemporalOverlapKernels : public QObject
{
    Q_OBJECT

private slots:

    void temporalMainNumbers_data() { tests::addModeRows(); }

    void temporalMainNumbers();

    void overlapMainNumbers_data() { tests::addModeRows(); }

    void overlapMainNumbers();

    void kernelBreakdownMainNumbers_data() { tests::addModeRows(); }

    void kernelBreakdownMainNumbers();
    void quantileCutAndOthersStatistics();
    void syncEventsAndTritonLaunchers();
    void hipAndSubstringNames();
    void touchingTypesGiveZeroLengthClassInCompat();
    void rankWithoutGpuWork();
    void cpuOnlyTrace();
    void numpyTieOrder();
};

void TestTemporalOverlapKernels::temporalMainNumbers()
{
    QFETCH(AnalysisMode, mode);
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, mainEvents()) });
    const Outputs out = analyse(set, mode);
    // Merged GPU work [0,15] [20,25] [30,40]: span 40, busy 30; compute [0,10] [30,40].
    COMPARE_VALUES(temporalValues(out.temporal), { 10, 20, 10, 40, 25, 50, 25 });
    const core::Table& t = frameOf(out.temporal, 0);
    QCOMPARE(t.columns.size(), std::size_t(8));
    QCOMPARE(t.columns[1].name, std::string("idle_time(us)"));
}

void TestTemporalOverlapKernels::overlapMainNumbers()
{
    QFETCH(AnalysisMode, mode);
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::spacedRankDocument(0, mainEvents()),
            tests::spacedRankDocument(1, { cpuOp(0, 10), kernel("gemm", 0, 10) }) });
    const Outputs out = analyse(set, mode);
    // Comm [5,15] overlapped by compute [0,10] for 5 of its 10 µs; rank 1 has no comm: 0/0 → null.
    QCOMPARE(overlapOf(out.overlap, 0), std::optional<double>(50.0));
    QCOMPARE(overlapOf(out.overlap, 1), std::optional<double>());
}

void TestTemporalOverlapKernels::kernelBreakdownMainNumbers()
{
    QFETCH(AnalysisMode, mode);
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, mainEvents()) });
    const Outputs out = analyse(set, mode);
    const core::Table& types = frameOf(out.kernels, 0);
    QCOMPARE(types.rows.size(), std::size_t(4));
    QCOMPARE(core::cellAsText(types.rows[0][0]), std::string("COMPUTATION")); // sum descending
    QCOMPARE(typeSum(out.kernels, "COMPUTATION"), 15.0);
    QCOMPARE(typeSum(out.kernels, "COMMUNICATION"), 5.0);
    QCOMPARE(typeSum(out.kernels, "COMPUTATION overlapping COMMUNICATION"), 5.0);
    QCOMPARE(typeSum(out.kernels, "MEMORY"), 5.0);
    QCOMPARE(core::cellAsDouble(rowWhere(types, "kernel_type", "MEMORY")[2]), std::optional<double>(16.7));
    QCOMPARE(core::cellAsDouble(types.rows[0][2]), std::optional<double>(50.0));

    // Sorted by kernel_type, name, rank; relu: 3 and 7 µs.
    const core::Table& kernels = frameOf(out.kernels, 1);
    QCOMPARE(kernels.rows.size(), std::size_t(4));
    QCOMPARE(core::cellAsText(kernels.rows[0][0]), std::string("ncclKernel_AllReduce"));
    QCOMPARE(core::cellAsText(kernels.rows[1][0]), std::string("gemm"));
    QCOMPARE(core::cellAsText(kernels.rows[2][0]), std::string("relu"));
    QCOMPARE(core::cellAsText(kernels.rows[3][6]), std::string("MEMORY"));
    COMPARE_VALUES(kernelStats(out.kernels, "relu"), { 10, 7, 3, std::sqrt(8.0), 5 });
    COMPARE_VALUES(kernelStats(out.kernels, "gemm"), { 10, 10, 10, 0, 10 });
}

void TestTemporalOverlapKernels::quantileCutAndOthersStatistics()
{
    // Sums A 40 (10+30), B 20, C 10 (4+6), D 5. Cumulative sums 40 60 70 75: their 0.8
    // quantile is 72, so only D folds into `others` with num_kernels 3 (0.8 × total = 60
    // would fold C too).
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::spacedRankDocument(0,
            { cpuOp(0, 200), kernel("kA", 0, 10), kernel("kA", 20, 30), kernel("kB", 60, 20),
                kernel("kC", 90, 4), kernel("kC", 100, 6), kernel("kD", 110, 5) }) });
    const Outputs compat = analyse(set, AnalysisMode::HtaCompat, 3);
    const Outputs exact = analyse(set, AnalysisMode::Default, 3);
    for (const Outputs* out : { &compat, &exact })
        QCOMPARE(frameOf(out->kernels, 1).rows.size(), std::size_t(4)); // kA kB kC others

    // Q5, HtaCompat: the listed kernels are regrouped over their sums: max = min = mean = sum, std 0;
    // `others` over its members' totals (one member here).
    COMPARE_VALUES(kernelStats(compat.kernels, "kA"), { 40, 40, 40, 0, 40 });
    COMPARE_VALUES(kernelStats(compat.kernels, "kC"), { 10, 10, 10, 0, 10 });
    COMPARE_VALUES(kernelStats(compat.kernels, "others"), { 5, 5, 5, 0, 5 });
    // Default: each kernel's own statistics.
    COMPARE_VALUES(kernelStats(exact.kernels, "kA"), { 40, 30, 10, std::sqrt(200.0), 20 });
    COMPARE_VALUES(kernelStats(exact.kernels, "kC"), { 10, 6, 4, std::sqrt(2.0), 5 });
    COMPARE_VALUES(kernelStats(exact.kernels, "others"), { 5, 5, 5, 0, 5 });

    // num_kernels 2 folds C and D: compat statistics over the totals 10 and 5, default over the events 4,
    // 6, 5.
    const Outputs compat2 = analyse(set, AnalysisMode::HtaCompat, 2);
    const Outputs exact2 = analyse(set, AnalysisMode::Default, 2);
    COMPARE_VALUES(kernelStats(compat2.kernels, "others"), { 15, 10, 5, std::sqrt(12.5), 7.5 });
    COMPARE_VALUES(kernelStats(exact2.kernels, "others"), { 15, 6, 4, 1, 5 });
    COMPARE_VALUES(kernelStats(compat2.kernels, "kB"), { 20, 20, 20, 0, 20 });
}

void TestTemporalOverlapKernels::syncEventsAndTritonLaunchers()
{
    // Q3: a Stream Sync with a stream and a Triton launcher cpu_op with stream 0 are
    // "GPU work" for HTA. Kernel k [0,10], sync [20,30], launcher [40,44] and its
    // kernel [50,56] (same name), NCCL [40,44] on another stream.
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::spacedRankDocument(0,
            { cpuOp(0, 60), kernel("k", 0, 10), onStream("cuda_sync", "Stream Sync", 20, 10, 7),
                slice("cpu_op", "triton_poi_fused_0", 40, 4, 100, R"({"stream":0})"),
                kernel("triton_poi_fused_0", 50, 6),
                onStream("kernel", "ncclKernel_AllReduce", 40, 4, 9) }) });
    const Outputs compat = analyse(set, AnalysisMode::HtaCompat);
    const Outputs exact = analyse(set, AnalysisMode::Default);

    // HtaCompat: busy 30 of a 56 µs span; compute = k + launcher + Triton kernel.
    COMPARE_VALUES(temporalValues(compat.temporal), { 26, 20, 10, 56, 46.43, 35.71, 17.86 });
    // Default: device work only: busy 20 (k, NCCL, Triton kernel), compute 16.
    COMPARE_VALUES(temporalValues(exact.temporal), { 36, 16, 4, 56, 64.29, 28.57, 7.14 });

    // The launcher and its kernel share a name: HTA sums both.
    COMPARE_VALUES(kernelStats(compat.kernels, "triton_poi_fused_0"), { 10, 6, 4, std::sqrt(2.0), 5 });
    COMPARE_VALUES(kernelStats(exact.kernels, "triton_poi_fused_0"), { 6, 6, 6, 0, 6 });
    QCOMPARE(typeSum(compat.kernels, "COMPUTATION overlapping COMMUNICATION"), 4.0);
    QVERIFY(!hasType(exact.kernels, "COMPUTATION overlapping COMMUNICATION"));

    // The NCCL kernel runs during the launcher op: 100 % overlapped for HTA, 0 % on the device.
    QCOMPARE(overlapOf(compat.overlap), std::optional<double>(100.0));
    QCOMPARE(overlapOf(exact.overlap), std::optional<double>(0.0));
}

void TestTemporalOverlapKernels::hipAndSubstringNames()
{
    // Q7: a device copy named hip* is COMMUNICATION for HTA, a kernel whose name contains
    // "Sync" is OTHER; default classifies by category: MEMORY and COMPUTATION.
    // Copy [0,10] stream 7, gemm [5,15] stream 8, softmax_warpSync_kernel [20,30] stream 7.
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::spacedRankDocument(0,
            { cpuOp(0, 30), onStream("gpu_memcpy", "hipMemcpyWithStream", 0, 10, 7), kernel("gemm", 5, 10, 8),
                kernel("softmax_warpSync_kernel", 20, 10) }) });
    const Outputs compat = analyse(set, AnalysisMode::HtaCompat);
    const Outputs exact = analyse(set, AnalysisMode::Default);

    COMPARE_VALUES(temporalValues(compat.temporal), { 5, 10, 15, 30, 16.67, 33.33, 50 });
    COMPARE_VALUES(temporalValues(exact.temporal), { 5, 20, 5, 30, 16.67, 66.67, 16.67 });

    QCOMPARE(typeSum(compat.kernels, "COMMUNICATION"), 5.0);
    QCOMPARE(typeSum(compat.kernels, "COMPUTATION overlapping COMMUNICATION"), 5.0);
    QCOMPARE(typeSum(compat.kernels, "COMPUTATION"), 5.0);
    QVERIFY(!hasType(compat.kernels, "MEMORY"));
    QCOMPARE(typeSum(exact.kernels, "MEMORY"), 5.0);
    QCOMPARE(typeSum(exact.kernels, "COMPUTATION overlapping MEMORY"), 5.0);
    QCOMPARE(typeSum(exact.kernels, "COMPUTATION"), 15.0);
    QVERIFY(!hasType(exact.kernels, "COMMUNICATION"));
    QCOMPARE(core::cellAsText(rowWhere(frameOf(compat.kernels, 1), "name", "hipMemcpyWithStream")[6]),
        std::string("COMMUNICATION"));
    QCOMPARE(core::cellAsText(rowWhere(frameOf(exact.kernels, 1), "name", "hipMemcpyWithStream")[6]),
        std::string("MEMORY"));
    QCOMPARE(frameOf(compat.kernels, 1).rows.size(), std::size_t(2)); // the OTHER kernel is not listed
    QCOMPARE(frameOf(exact.kernels, 1).rows.size(), std::size_t(3));

    QCOMPARE(overlapOf(compat.overlap), std::optional<double>(50.0));
    QCOMPARE(overlapOf(exact.overlap), std::optional<double>()); // no communication
}

void TestTemporalOverlapKernels::touchingTypesGiveZeroLengthClassInCompat()
{
    // Comm [0,10] then compute [10,20]: in HTA's sweep the compute start is ordered
    // before the comm end at t=10, a transient "overlap" of zero length that still
    // appears as a row with sum 0. Default applies all changes at one time together.
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::spacedRankDocument(
            0, { cpuOp(0, 20), onStream("kernel", "ncclKernel_Send", 0, 10, 9), kernel("gemm", 10, 10) }) });
    const Outputs compat = analyse(set, AnalysisMode::HtaCompat);
    const Outputs exact = analyse(set, AnalysisMode::Default);
    QCOMPARE(frameOf(compat.kernels, 0).rows.size(), std::size_t(3));
    QCOMPARE(typeSum(compat.kernels, "COMPUTATION overlapping COMMUNICATION"), 0.0);
    QCOMPARE(frameOf(exact.kernels, 0).rows.size(), std::size_t(2));
    QCOMPARE(typeSum(exact.kernels, "COMPUTATION"), 10.0);
    QCOMPARE(overlapOf(compat.overlap), std::optional<double>(0.0));
}

void TestTemporalOverlapKernels::rankWithoutGpuWork()
{
    QTemporaryDir dir;
    const auto set = tests::loadRanks(
        dir, { tests::spacedRankDocument(0, mainEvents()), tests::spacedRankDocument(1, { cpuOp(0, 10) }) });
    const Outputs compat = analyse(set, AnalysisMode::HtaCompat);
    const Outputs exact = analyse(set, AnalysisMode::Default);
    // HTA raises IndexError for the whole call.
    QVERIFY(!compat.temporal.ok);
    QVERIFY(compat.temporal.error.find("rank 1") != std::string::npos);
    // Default keeps the ranks with GPU work and lists the other without values.
    COMPARE_VALUES(temporalValues(exact.temporal, 0), { 10, 20, 10, 40, 25, 50, 25 });
    const auto& empty = rankRow(frameOf(exact.temporal, 0), 1);
    QVERIFY(!core::cellAsDouble(empty[4]).has_value());
    QCOMPARE(overlapOf(exact.overlap, 1), std::optional<double>());
    QCOMPARE(overlapOf(compat.overlap, 1), std::optional<double>());
}

void TestTemporalOverlapKernels::cpuOnlyTrace()
{
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(34, { cpuOp(0, 10) }) });
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        const Outputs out = analyse(set, mode);
        QVERIFY(!out.temporal.ok);
        QVERIFY(!out.temporal.error.empty());
        QCOMPARE(frameOf(out.kernels, 0).rows.size(), std::size_t(0));
        QCOMPARE(frameOf(out.kernels, 1).rows.size(), std::size_t(0));
        QCOMPARE(overlapOf(out.overlap, 34), std::optional<double>());
    }
}

void TestTemporalOverlapKernels::numpyTieOrder()
{
    // HTA's orders among equal keys come from numpy 1.24's introsort (via pandas); the
    // expected permutations were produced by numpy 1.24.2 / pandas 1.5.3.
    const std::vector<double> v { 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1 };
    const std::vector<std::size_t> ascending { 19, 1, 4, 16, 7, 10, 13, 2, 17, 5, 8, 11, 14, 15, 0, 18, 6, 3,
        12, 9 };
    const std::vector<std::size_t> descending { 0, 3, 18, 6, 9, 12, 15, 14, 2, 5, 17, 8, 11, 16, 10, 13, 1, 7,
        4, 19 };
    QCOMPARE(core::numpyArgsort(v), ascending);
    QCOMPARE(core::numpyArgsortDescending(v), descending);
    // Below 17 elements numpy sorts by insertion: stable.
    const std::vector<double> small { 2, 1, 2, 1 };
    QCOMPARE(core::numpyArgsort(small), (std::vector<std::size_t> { 1, 3, 0, 2 }));
}

KS_TEST_MAIN(tst_temporal_overlap_kernels, TestTemporalOverlapKernels)
#include "tst_temporal_overlap_kernels.moc"
