// Every ColumnId an analysis declares in its header names a column of the
// tables that analysis returns, in both modes, on the shared traces: the ids
// the charts, the rank overview, `check` and the counter traces read by can
// never drift from the tables (a renamed column fails here, not in a blank chart).

#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/hta/comm_comp_overlap.h"
#include "core/analysis/hta/idle_time_breakdown.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/hta/launch_stats.h"
#include "core/analysis/hta/memory_bandwidth.h"
#include "core/analysis/hta/queue_length.h"
#include "core/analysis/hta/temporal_breakdown.h"
#include "core/analysis/hta/user_annotation_breakdown.h"
#include "core/analysis/operators/operator_stats.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <functional>
#include <set>

using namespace ks;
using core::ColumnId;

namespace {

// The data frames of a result: the frame itself, a tuple's or a dict's frames.
std::vector<const core::Table*> tablesOf(const core::HtaResult& r)
{
    std::vector<const core::Table*> out;
    if (r.kind == core::HtaResult::Kind::DataFrame)
        out.push_back(&r.frame);
    for (const auto& item : r.items)
        for (const core::Table* t : tablesOf(item))
            out.push_back(t);
    for (const auto& [key, value] : r.entries)
        for (const core::Table* t : tablesOf(value))
            out.push_back(t);
    return out;
}

struct Declared
{
    const char* analysis;
    std::function<core::AnalysisOutput(const core::FrameSet&, const core::AnalysisOptions&)> run;
    std::size_t table; // which of the result's frames (tuple position; every frame of a dict)
    std::vector<ColumnId> ids;
    bool perRankDict = false;
};

std::vector<Declared> declared()
{
    namespace tb = core::temporal_breakdown;
    namespace ib = core::idle_time_breakdown;
    namespace kb = core::kernel_breakdown;
    namespace ql = core::queue_length;
    namespace qs = core::queue_length_summary;
    namespace mb = core::memory_bandwidth;
    namespace ms = core::memory_bw_summary;
    namespace ls = core::launch_stats;
    namespace ro = core::rank_overview;
    return {
        { "temporal_breakdown", core::temporalBreakdown, 0,
            { tb::kRank, tb::kIdleTime, tb::kComputeTime, tb::kNonComputeTime, tb::kKernelTime, tb::kIdlePctg,
                tb::kComputePctg, tb::kNonComputePctg } },
        { "comm_comp_overlap", core::commCompOverlap, 0,
            { core::comm_comp_overlap::kRank, core::comm_comp_overlap::kOverlapPctg } },
        { "idle_time_breakdown", core::idleTimeBreakdown, 0,
            { ib::kRank, ib::kStream, ib::kIdleCategory, ib::kIdleTime, ib::kIdleTimeRatio } },
        { "kernel_type_breakdown", core::gpuKernelBreakdown, 0,
            { kb::kKernelType, kb::kTypeSum, kb::kPercentage } },
        { "kernel_breakdown", core::gpuKernelBreakdown, 1,
            { kb::kName, kb::kSum, kb::kMax, kb::kMin, kb::kStddev, kb::kMean, kb::kKernelType, kb::kRank,
                core::kEventNameColumn } },
        { "queue_length", core::queueLengthTimeSeries, 0,
            { ql::kIndex, ql::kTs, ql::kPid, ql::kTid, ql::kStream, ql::kQueueLength }, true },
        { "queue_length_summary", core::queueLengthSummary, 0,
            { qs::kRank, qs::kStream, qs::kMean, qs::kMin, qs::kMax } },
        { "memory_bw", core::memoryBwTimeSeries, 0,
            { mb::kIndex, mb::kTs, mb::kPid, mb::kName, mb::kBandwidth }, true },
        { "memory_bw_summary", core::memoryBwSummary, 0,
            { ms::kRank, ms::kName, ms::kMean, ms::kMin, ms::kMax } },
        { "launch_stats", core::cudaKernelLaunchStats, 0,
            { ls::kIndex, ls::kCorrelation, ls::kCpuDuration, ls::kGpuDuration, ls::kLaunchDelay }, true },
        { "user_annotation_breakdown",
            [](const core::FrameSet& f, core::AnalysisOptions o) {
                o.annotations.useGpuAnnotation = false; // the CPU ranges: every checked trace has them
                return core::userAnnotationBreakdown(f, o);
            },
            0,
            { core::user_annotation_breakdown::kName, core::user_annotation_breakdown::kSum,
                core::user_annotation_breakdown::kMax, core::user_annotation_breakdown::kMin,
                core::user_annotation_breakdown::kStddev, core::user_annotation_breakdown::kMean,
                core::user_annotation_breakdown::kRank, core::kEventNameColumn } },
        { "rank_overview",
            [](const core::FrameSet& f, const core::AnalysisOptions& o) { return core::rankOverview(f, o); },
            0,
            { ro::kRank, ro::kIteration, ro::kStepTime, ro::kIdlePct, ro::kComputePct, ro::kNonComputePct,
                ro::kOverlapPct, ro::kGpuBusy, ro::kStraggler } },
    };
}

} // namespace

class TestResultColumns : public QObject
{
    Q_OBJECT

private slots:

    void everyDeclaredColumnIsInItsTable_data()
    {
        QTest::addColumn<bool>("compat");
        QTest::newRow("hta-compat") << true;
        QTest::newRow("default") << false;
    }

    void everyDeclaredColumnIsInItsTable()
    {
        QFETCH(bool, compat);
        const auto mode = compat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        std::set<std::string> checked; // analyses that returned a table on some trace
        for (const char* folder : { "ddp_gloo_2ranks", "critical_path_alexnet", "cuda_event_sync" }) {
            const core::TraceSet set = tests::loadSharedTraces(QLatin1String(folder));
            const core::FrameSet frames = tests::frames(set, mode);
            core::AnalysisOptions options;
            options.mode = mode;
            for (const Declared& d : declared()) {
                const core::AnalysisOutput out = d.run(frames, options);
                if (!out.ok)
                    continue; // not applicable to this trace (no steps, no GPU work)
                std::vector<const core::Table*> tables = tablesOf(out.result);
                if (!d.perRankDict)
                    tables = d.table < tables.size() ? std::vector { tables[d.table] }
                                                     : std::vector<const core::Table*> {};
                for (const core::Table* t : tables) {
                    if (t->columns.empty())
                        continue;
                    checked.insert(d.analysis);
                    for (const ColumnId& id : d.ids) {
                        const auto at = t->find(id);
                        QVERIFY2(at,
                            qPrintable(QStringLiteral("%1 on %2: no column %3")
                                           .arg(QLatin1String(d.analysis), QLatin1String(folder),
                                               QString::fromUtf8(id.name(mode).data(),
                                                   static_cast<qsizetype>(id.name(mode).size())))));
                        // The mode's own spelling: --hta-compat output carries HTA's names.
                        QCOMPARE(t->columns[*at].name, std::string(id.name(mode)));
                        QCOMPARE(t->columns[*at].unit, std::string(id.unit));
                    }
                }
            }
        }
        // Each analysis was really checked on some trace (no vacuous pass).
        for (const Declared& d : declared())
            QVERIFY2(checked.count(d.analysis), d.analysis);
    }

    // The tables with no HTA counterpart (one spelling in both modes): the
    // operator table in every grouping, with its GPU columns, and collective skew.
    void nonHtaTablesHaveTheirDeclaredColumns()
    {
        const auto expectColumns = [](const core::Table& t, const std::vector<ColumnId>& ids) {
            QVERIFY(!t.rows.empty());
            for (const ColumnId& id : ids) {
                const auto at = t.find(id);
                QVERIFY2(at,
                    qPrintable(QString::fromStdString(t.name + ": no column " + std::string(id.suffixed))));
                QCOMPARE(t.columns[*at].unit, std::string(id.unit));
            }
        };
        namespace op = core::operator_stats_columns;
        const core::TraceSet gpu = tests::loadSharedTraces(QStringLiteral("critical_path_alexnet"));
        const std::vector<ColumnId> always { op::kName, op::kNode, op::kCalls, op::kSelfCpuPct, op::kSelfCpu,
            op::kCpuTotalPct, op::kCpuTotal, op::kCpuAvg, op::kGpuTotal, op::kGpuSelf, op::kKernels,
            op::kAsync };
        const std::pair<core::OperatorGrouping, std::vector<ColumnId>> groupings[] = {
            { core::OperatorGrouping::Name, {} },
            { core::OperatorGrouping::Shapes, { op::kInputShapes } },
            { core::OperatorGrouping::Rank, { op::kRank } },
            { core::OperatorGrouping::Iteration, { op::kIteration } },
        };
        for (const auto& [by, extra] : groupings) {
            core::OperatorStatsOptions options;
            options.by = by;
            const core::Table t = core::operatorStatsTable(core::operatorStats(gpu, options), by);
            expectColumns(t, always);
            expectColumns(t, extra);
        }
        namespace cs = core::collective_skew_columns;
        const core::AnalysisOutput skew =
            core::collectiveSkew(tests::loadSharedTraces(QStringLiteral("ddp_gloo_2ranks")));
        QVERIFY(skew.ok);
        expectColumns(skew.result.frame,
            { cs::kGroup, cs::kBackend, cs::kName, cs::kInstance, cs::kMatchedBy, cs::kRanks,
                cs::kFirstArrival, cs::kSkew, cs::kLastRank, cs::kTransfer, cs::kWaitShare, cs::kMessageBytes,
                cs::kBusBandwidth });
    }
};

KS_TEST_MAIN(tst_result_columns, TestResultColumns)
#include "tst_result_columns.moc"
