// The User Annotations view's pie (top annotations of a rank,
// GPU or CPU time, a slice finds the annotation), the kernel views grouped by annotation,
// and a kernel's annotations and CUPTI counters in the timeline's Details. Real traces
// with annotations (ns_resolution: GPU and CPU ones; two_ranks_sampled: CPU ones on two
// ranks) and a small trace with CUPTI range-profiler events, which no shared trace has.
#include "app/gui/main_window/main_window.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/hta/annotated_kernels.h"
#include "core/analysis/hta/cupti_counters.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/hta/user_annotation_breakdown.h"
#include "core/model/rank_trace.h"
#include "core/report/table_text.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/analysis/analysis_table_model.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/analysis/user_annotation_panel.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/charts/annotation_pie.h"
#include "widgets/charts/chart_style.h"
#include "widgets/common/format.h"
#include "widgets/common/table_lookup.h"
#include "widgets/common/view_navigator.h"
#include "widgets/timeline/model/kernel_context.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/panels/slice_details_panel.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <algorithm>
#include <map>

using namespace ks;
using widgets::AnalysisChartKind;
using widgets::AnalysisView;

namespace {

using Output = std::shared_ptr<const core::AnalysisOutput>;

core::FrameSet defaultFrames(const core::TraceSet& set)
{
    auto frames = core::buildFrames(set, core::AnalysisOptions {});
    return std::move(frames).value();
}

Output annotationBreakdown(const core::FrameSet& frames, bool gpu)
{
    core::AnalysisOptions options;
    options.annotations.useGpuAnnotation = gpu;
    return std::make_shared<const core::AnalysisOutput>(core::userAnnotationBreakdown(frames, options));
}

// The oracle of a pie: each annotation's summed duration (ns) on one rank, straight from
// the store, largest first.
std::vector<std::pair<QString, double>> storeSums(const core::RankTrace& t, std::string_view category)
{
    std::map<QString, double> sums;
    for (std::uint32_t s = 0; s < t.slices.size(); ++s)
        if (t.sliceCategory(s) == category)
            sums[QString::fromUtf8(t.sliceName(s).data(), static_cast<qsizetype>(t.sliceName(s).size()))] +=
                static_cast<double>(t.slices.duration(s));
    std::vector<std::pair<QString, double>> sorted(sums.begin(), sums.end());
    std::stable_sort(
        sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    return sorted;
}

void comparePie(const widgets::AnnotationPie& pie, const std::vector<std::pair<QString, double>>& expected)
{
    QCoreApplication::processEvents(); // the layout sizes a new pie, which folds what does not fit
    const auto& slices = pie.slices();
    const std::size_t named =
        std::min<std::size_t>(expected.size(), widgets::UserAnnotationPanel::kMaxSlices);
    QCOMPARE(slices.size(), named + (expected.size() > named ? 1 : 0));
    for (std::size_t i = 0; i < named; ++i) {
        QCOMPARE(slices[i].name, expected[i].first);
        QVERIFY2(std::abs(slices[i].nanoseconds - expected[i].second) <= 1e-6 * expected[i].second + 1,
            qPrintable(slices[i].name));
        QVERIFY(slices[i].searchable);
    }
    if (expected.size() > named) {
        double rest = 0;
        for (std::size_t i = named; i < expected.size(); ++i)
            rest += expected[i].second;
        QVERIFY(!slices.back().searchable);
        QVERIFY(std::abs(slices.back().nanoseconds - rest) <= 1e-6 * rest + 1);
    }
}

void declareAnnotationVariants(AnalysisView& view)
{
    view.setVariants(QStringLiteral("Time:"),
        { { QStringLiteral("GPU time"), AnalysisChartKind::UserAnnotations,
              core::OutputKey::UserAnnotationsGpu },
            { QStringLiteral("CPU time"), AnalysisChartKind::UserAnnotations,
                core::OutputKey::UserAnnotationsCpu } });
}

// A rank recorded with CUPTI's range profiler: the ranges stand for the kernels, their
// counters in args; two launches under aten ops and a CPU annotation, a GPU annotation
// over the first range.
QByteArray cuptiTrace()
{
    return QByteArrayLiteral(R"({"schemaVersion": 1, "distributedInfo": {"rank": 0, "world_size": 1},
 "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "## forward ##", "pid": 10, "tid": 11, "ts": 1000, "dur": 300},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 10, "tid": 11, "ts": 1001, "dur": 150},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 1005, "dur": 100},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1010, "dur": 5,
   "args": {"correlation": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 10, "tid": 11, "ts": 1200, "dur": 50},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1210, "dur": 5,
   "args": {"correlation": 2}},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "fwd_gpu", "pid": 0, "tid": 7, "ts": 1015, "dur": 60},
  {"ph": "X", "cat": "cuda_profiler_range", "name": "gemm", "pid": 0, "tid": 7, "ts": 1020, "dur": 30,
   "args": {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 1000,
            "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 10, "note": "x"}},
  {"ph": "X", "cat": "cuda_profiler_range", "name": "relu", "pid": 0, "tid": 7, "ts": 1220, "dur": 8,
   "args": {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 0,
            "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 64}}
 ]}
)");
}

widgets::SliceRef sliceNamed(const widgets::TimelineData& data, std::string_view name)
{
    const core::RankTrace& t = data.trace(0);
    for (std::uint32_t s = 0; s < t.slices.size(); ++s)
        if (t.sliceName(s) == name)
            return { 0, s };
    return {};
}

} // namespace

class TestUserAnnotationViews : public QObject
{
    Q_OBJECT

private slots:

    // GPU time, then CPU time, of ns_resolution's rank 0: the pie's slices are the
    // annotations' summed durations in the store, the top 8 and the rest as "other".
    void pieShowsTheTopAnnotationsOfARank()
    {
        const auto set = test::loadSharedTraces("ns_resolution");
        if (!set)
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/ns_resolution");
        const core::FrameSet frames = defaultFrames(*set);
        AnalysisView view(AnalysisChartKind::UserAnnotations);
        declareAnnotationVariants(view);
        view.resize(1100, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setVariantResults({ annotationBreakdown(frames, true), annotationBreakdown(frames, false) });
        QVERIFY(view.hasResult());
        QVERIFY(view.variantChooser()->isVisible());
        auto* panel = view.findChild<widgets::UserAnnotationPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->rank(), std::int64_t { 0 });
        const core::RankTrace& rank0 = *set->ranks.front();
        comparePie(*panel->pie(), storeSums(rank0, "gpu_user_annotation"));
        QVERIFY(panel->pie()->caption().contains(QStringLiteral("GPU time")));

        // Every slice is found where it is drawn, and a click asks for its annotation.
        QSignalSpy found(&view, &AnalysisView::nameActivated);
        const auto& slices = panel->pie()->slices();
        for (int i = 0; i < static_cast<int>(slices.size()); ++i)
            if (panel->pie()->percentOf(i) > 1)
                QCOMPARE(panel->pie()->sliceAt(panel->pie()->pointInSlice(i)), i);
        QTest::mouseClick(panel->pie(), Qt::LeftButton, {}, panel->pie()->pointInSlice(0));
        QCOMPARE(found.count(), 1);
        QCOMPARE(found.first().first().toString(), slices.front().name);
        // The bars below still find their annotation too.
        QVERIFY(view.chart()->plottableCount() > 0);

        // CPU time: the user_annotation ranges (13 names: top 8 and "other").
        view.setCurrentVariant(1);
        panel = view.findChild<widgets::UserAnnotationPanel*>();
        QVERIFY(panel);
        const auto cpu = storeSums(rank0, "user_annotation");
        QVERIFY(cpu.size() > widgets::UserAnnotationPanel::kMaxSlices);
        comparePie(*panel->pie(), cpu);
        QVERIFY(panel->pie()->caption().contains(QStringLiteral("CPU time")));
        // "other" finds nothing: a click on it asks for no name.
        found.clear();
        const int other = static_cast<int>(panel->pie()->slices().size()) - 1;
        QTest::mouseClick(panel->pie(), Qt::LeftButton, {}, panel->pie()->pointInSlice(other));
        QCOMPARE(found.count(), 0);
        // A new result keeps the chosen variant.
        view.setVariantResults({ annotationBreakdown(frames, true), annotationBreakdown(frames, false) });
        QCOMPARE(view.currentVariant(), 1);
        QCOMPARE(view.chartKind(), AnalysisChartKind::UserAnnotations);
    }

    // two_ranks_sampled has CPU annotations only: GPU time says why it does not apply (the
    // chooser stays), CPU time pies each rank chosen.
    void pieOfEachRank()
    {
        const auto set = test::loadSharedTraces("two_ranks_sampled");
        if (!set)
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        const core::FrameSet frames = defaultFrames(*set);
        AnalysisView view(AnalysisChartKind::UserAnnotations);
        declareAnnotationVariants(view);
        view.resize(1100, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setVariantResults({ annotationBreakdown(frames, true), annotationBreakdown(frames, false) });
        QVERIFY(!view.hasResult());
        QVERIFY2(view.message().startsWith(QStringLiteral("Not applicable")), qPrintable(view.message()));
        QVERIFY(view.message().contains(QStringLiteral("gpu_user_annotation")));
        QVERIFY(view.variantChooser()->isVisible());
        view.variantChooser()->setCurrentIndex(1);
        emit view.variantChooser()->activated(1);
        QVERIFY(view.hasResult());
        auto* panel = view.findChild<widgets::UserAnnotationPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->rankChooser()->count(), 2);
        comparePie(*panel->pie(), storeSums(*set->ranks[0], "user_annotation"));
        QVERIFY(panel->setRank(1));
        QCOMPARE(panel->rank(), std::int64_t { 1 });
        QVERIFY(panel->pie()->caption().contains(QStringLiteral("Rank 1:")));
        comparePie(*panel->pie(), storeSums(*set->ranks[1], "user_annotation"));
        QVERIFY(!panel->setRank(7));
        // Showing a message (a recompute) hides the chooser until results come.
        view.showMessage(QStringLiteral("Computing…"));
        QVERIFY(!view.variantChooser()->isVisible());
    }

    // The kernel views' "Group by: User annotation": per annotation and rank the kernels'
    // total time, the same as the annotated-kernels table summed by annotation, all of the
    // rank's GPU work in the rows; a bar finds its annotation.
    void kernelsGroupedByAnnotation()
    {
        const auto set = test::loadSharedTraces("ns_resolution");
        if (!set)
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/ns_resolution");
        const core::FrameSet frames = defaultFrames(*set);
        const core::AnalysisOptions options;
        const Output breakdown =
            std::make_shared<const core::AnalysisOutput>(core::gpuKernelBreakdown(frames, options));
        const Output grouped =
            std::make_shared<const core::AnalysisOutput>(core::kernelTimeByAnnotation(frames, options));
        QVERIFY(grouped->ok);
        // Oracle: the annotated-kernels table (every kernel and its annotation) summed.
        const core::AnalysisOutput annotated = core::gpuKernelsWithUserAnnotations(frames, options, 0);
        QVERIFY(annotated.ok);
        std::map<std::string, double> expected;
        double gpuWork = 0;
        {
            namespace ak = core::annotated_kernels;
            const core::Table& t = annotated.result.frame;
            for (const auto& row : t.rows) {
                std::string name = core::cellAsText(row[*t.find(ak::kUserAnnotation)]);
                if (name.empty())
                    name = std::string(core::kNoAnnotation);
                expected[name] += *core::cellAsDouble(row[*t.find(ak::kDur)]);
            }
            for (const core::FrameRow& row : frames.ranks.front().rows)
                if (row.device)
                    gpuWork += static_cast<double>(row.dur) / 1000.0;
        }
        AnalysisView view(AnalysisChartKind::KernelDurations);
        view.setVariants(QStringLiteral("Group by:"),
            { { QStringLiteral("Kernel"), AnalysisChartKind::KernelDurations,
                  core::OutputKey::GpuKernelBreakdown },
                { QStringLiteral("User annotation"), AnalysisChartKind::KernelsByAnnotation,
                    core::OutputKey::KernelsByAnnotation } });
        view.resize(1100, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setVariantResults({ breakdown, grouped });
        QCOMPARE(view.chartKind(), AnalysisChartKind::KernelDurations);
        view.setCurrentVariant(1);
        QCOMPARE(view.chartKind(), AnalysisChartKind::KernelsByAnnotation);
        QCOMPARE(view.tables().size(), 1);
        const core::Table* table = view.tables().front()->table();
        QVERIFY(table);
        namespace kba = core::kernels_by_annotation;
        const auto name = *table->find(kba::kName);
        const auto sum = *table->find(kba::kSum);
        QCOMPARE(table->rows.size(), expected.size());
        double total = 0;
        for (std::size_t r = 0; r < table->rows.size(); ++r) {
            const std::string annotation = widgets::textAt(*table, r, name).toStdString();
            QVERIFY2(expected.count(annotation), annotation.c_str());
            QVERIFY2(std::abs(widgets::numberAt(*table, r, sum) - expected[annotation])
                    < 1e-6 * expected[annotation] + 1e-3,
                annotation.c_str());
            total += widgets::numberAt(*table, r, sum);
            if (r > 0) // largest first
                QVERIFY(widgets::numberAt(*table, r - 1, sum) >= widgets::numberAt(*table, r, sum));
        }
        QVERIFY(std::abs(total - gpuWork) < 1e-6 * gpuWork);
        QCOMPARE(view.tables().front()->model()->rowCount(), static_cast<int>(table->rows.size()));
        // A bar is an annotation's total: a click finds that annotation.
        widgets::AnalysisChart* chart = view.chart();
        QCPBars* bars = nullptr;
        for (int i = 0; i < chart->plottableCount() && !bars; ++i)
            bars = qobject_cast<QCPBars*>(chart->plottable(i));
        QVERIFY(bars && !bars->data()->isEmpty());
        QSignalSpy found(&view, &AnalysisView::nameActivated);
        const QStringList labels = widgets::categoryLabels(chart->yAxis);
        // The totals are drawn in the axis' unit.
        const QString axis = chart->xAxis->label();
        const double toUs = axis.contains(QStringLiteral("(s)")) ? 1e6
            : axis.contains(QStringLiteral("(ms)"))              ? 1e3
                                                                 : 1;
        QVERIFY2(toUs == 1e3, qPrintable(axis)); // ns_resolution: 316 ms at most
        for (int i = 0; i < bars->data()->size(); ++i) {
            found.clear();
            emit chart->plottableClick(bars, i, nullptr);
            const QString label = labels.value(qRound(bars->data()->at(i)->key));
            const std::string annotation = label.toStdString();
            QVERIFY2(expected.count(annotation), annotation.c_str());
            QVERIFY(std::abs(bars->data()->at(i)->value * toUs - expected[annotation])
                < 1e-6 * expected[annotation] + 1e-3);
            // "(no annotation)" has nothing to find on the timeline.
            QCOMPARE(found.count(), annotation == core::kNoAnnotation ? 0 : 1);
            if (!found.isEmpty())
                QCOMPARE(found.first().first().toString(), label);
        }
        // Back to kernels by name: A3's chart again.
        view.setCurrentVariant(0);
        QCOMPARE(view.tables().front()->table()->name, core::framesOf(breakdown->result).at(1).second->name);
    }

    // Details of ns_resolution's kernels: the GPU annotation each ran under is the one the
    // annotated-kernels analysis gives it; the CPU one is the innermost user_annotation
    // around its launch.
    void detailsNameAKernelsAnnotations()
    {
        const auto set = test::loadSharedTraces("ns_resolution");
        if (!set)
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/ns_resolution");
        const auto data = widgets::TimelineData::build(set);
        const core::RankTrace& t = data->trace(0);
        const core::FrameSet frames = defaultFrames(*set);
        const core::AnalysisOutput annotated = core::gpuKernelsWithUserAnnotations(frames, {}, 0);
        QVERIFY(annotated.ok);
        namespace ak = core::annotated_kernels;
        const core::Table& table = annotated.result.frame;
        std::map<std::int64_t, std::string> annotationOfEvent;
        for (const auto& row : table.rows)
            annotationOfEvent[static_cast<std::int64_t>(*core::cellAsDouble(row[*table.find(ak::kIndex)]))] =
                core::cellAsText(row[*table.find(ak::kUserAnnotation)]);
        int withGpu = 0;
        int withCpu = 0;
        widgets::SliceRef example;
        for (std::uint32_t s = 0; s < t.slices.size(); ++s) {
            const auto it = annotationOfEvent.find(t.slices.eventIndex[s]);
            if (it == annotationOfEvent.end())
                continue;
            const widgets::KernelContext context = widgets::kernelContext(*data, { 0, s });
            QVERIFY(context.gpuWork);
            const std::string gpu = context.gpuAnnotation.valid()
                ? std::string(t.sliceName(context.gpuAnnotation.slice))
                : std::string();
            QCOMPARE(gpu, it->second);
            withGpu += context.gpuAnnotation.valid();
            if (!context.launch.valid())
                continue;
            // The oracle: user_annotation slices of the launch's track containing it, shortest.
            const std::uint32_t launch = context.launch.slice;
            std::optional<std::uint32_t> innermost;
            for (std::uint32_t a = 0; a < t.slices.size(); ++a) {
                if (t.sliceCategory(a) != "user_annotation" || t.trackOf(a) != t.trackOf(launch))
                    continue;
                if (t.slices.start[a] <= t.slices.start[launch] && t.slices.end(launch) <= t.slices.end(a)
                    && (!innermost || t.slices.duration(a) < t.slices.duration(*innermost)))
                    innermost = a;
            }
            QCOMPARE(context.cpuAnnotation.valid(), innermost.has_value());
            if (innermost) {
                QCOMPARE(context.cpuAnnotation.slice, *innermost);
                ++withCpu;
                if (context.gpuAnnotation.valid() && !example.valid())
                    example = { 0, s };
            }
        }
        QVERIFY(withGpu > 100);
        QVERIFY(withCpu > 100);
        QVERIFY(example.valid());

        // The panel shows both as links to the annotations.
        widgets::TimelineViewState state;
        widgets::SliceDetailsPanel panel(&state);
        panel.setData(data);
        state.setSelectedSlice(example);
        const widgets::KernelContext context = widgets::kernelContext(*data, example);
        const QString text = panel.plainText();
        QVERIFY(text.contains(QStringLiteral("User annotation")));
        QVERIFY(text.contains(QStringLiteral("GPU annotation")));
        QVERIFY(text.contains(widgets::toQString(t.sliceName(context.gpuAnnotation.slice))));
        QVERIFY(text.contains(QStringLiteral("CPU annotation")));
        QVERIFY(text.contains(widgets::toQString(t.sliceName(context.cpuAnnotation.slice))));
        QSignalSpy activated(&panel, &widgets::SliceDetailsPanel::sliceActivated);
        panel.browser()->anchorClicked(QUrl(QStringLiteral("slice:0:%1").arg(context.gpuAnnotation.slice)));
        QCOMPARE(activated.count(), 1);
        // A CPU op is not GPU work: no annotation section.
        const widgets::SliceRef op = sliceNamed(*data, "aten::mm");
        QVERIFY(op.valid());
        QVERIFY(!widgets::kernelContext(*data, op).gpuWork);
        state.setSelectedSlice(op);
        QVERIFY(!panel.plainText().contains(QStringLiteral("User annotation")));
    }

    // A CUPTI range's counters in Details, with the launch they are paired with and its
    // operators as the CUPTI counters analysis gives them.
    void detailsShowCuptiCounters()
    {
        QTemporaryDir dir; // kept: Details re-reads the args from the file
        const QString path = dir.filePath(QStringLiteral("rank-0.json"));
        QVERIFY(test::writeFile(path, cuptiTrace()));
        const auto set = test::loadSet(path);
        QVERIFY(set);
        const auto data = widgets::TimelineData::build(set);
        const widgets::SliceRef gemm = sliceNamed(*data, "gemm");
        QVERIFY(gemm.valid());
        const widgets::SliceDetails d = widgets::describeSlice(*data, gemm, widgets::Alignment {});
        QVERIFY(d.counterRange);
        QCOMPARE(d.counters.size(), 2); // the text arg is no counter
        std::map<QString, double> counters(d.counters.begin(), d.counters.end());
        QCOMPARE(counters[QStringLiteral("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")], 1000.0);
        QCOMPARE(counters[QStringLiteral("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum")], 10.0);
        QCOMPARE(d.counterLaunch.size(), 1);
        QCOMPARE(d.counterLaunch.front().name, QStringLiteral("cudaLaunchKernel"));
        // The launch and operators: the analysis' row for this range.
        core::AnalysisOptions options;
        const core::AnalysisOutput cupti = core::cuptiCounterData(defaultFrames(*set), options);
        QVERIFY(cupti.ok);
        const core::Table& table = cupti.result.items.front().frame;
        namespace cc = core::cupti_counters;
        bool matched = false;
        const core::RankTrace& t = data->trace(0);
        for (const auto& row : table.rows) {
            if (core::cellAsText(row[*table.find(cc::kName)]) != "gemm")
                continue;
            matched = true;
            QCOMPARE(d.opStack, QString::fromStdString(core::cellAsText(row[*table.find(cc::kOpStack)])));
            QCOMPARE(static_cast<double>(t.slices.eventIndex[d.counterLaunch.front().ref.slice]),
                *core::cellAsDouble(row[*table.find(cc::kIndexRuntime)]));
        }
        QVERIFY(matched);
        QCOMPARE(d.opStack, QStringLiteral("aten::linear > aten::mm"));
        // Its annotations: the GPU one over it, the CPU one around its launch.
        QCOMPARE(d.annotations.size(), 2);
        QCOMPARE(d.annotations[0].name, QStringLiteral("fwd_gpu"));
        QCOMPARE(d.annotations[1].name, QStringLiteral("## forward ##"));
        // The second range pairs with the second launch, outside the GPU annotation.
        const widgets::KernelContext relu = widgets::kernelContext(*data, sliceNamed(*data, "relu"));
        QVERIFY(!relu.gpuAnnotation.valid());
        QVERIFY(relu.launch.valid());
        QCOMPARE(relu.opStack, std::vector<std::string> { "aten::relu" });

        widgets::TimelineViewState state;
        widgets::SliceDetailsPanel panel(&state);
        panel.setData(data);
        state.setSelectedSlice(gemm);
        // The names may wrap after '_' and '.' (zero-width spaces): read them without.
        const QString text = panel.plainText().remove(QChar(0x200B));
        QVERIFY(text.contains(QStringLiteral("CUPTI counters")));
        // Each counter once: the Args list leaves out what the counters show.
        QCOMPARE(text.count(QStringLiteral("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum")), 1);
        QVERIFY(text.contains(QStringLiteral("note")));
        QVERIFY(text.contains(QStringLiteral("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum")));
        QVERIFY(text.contains(widgets::formatCount(1000)));
        QVERIFY(text.contains(QStringLiteral("aten::linear > aten::mm")));
    }

    // In the app at 1280×800 (the laptop screen the layout is made for): the pie is big
    // enough to read and its whole legend is drawn; a slice searches the timeline for its
    // annotation; the kernel view's "Group by" is chosen by name.
    void readableInTheWindowAt1280x800()
    {
        const QString trace = QStringLiteral(KS_SHARED_DIR "/traces/ns_resolution");
        if (!QFileInfo::exists(trace))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/ns_resolution");
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        app::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy ready(&window, &app::MainWindow::analysesReady);
        window.openPaths({ trace });
        QVERIFY(ready.wait(120000));
        QVERIFY(window.showView(QStringLiteral("userAnnotations")));
        auto* view = qobject_cast<AnalysisView*>(window.navigator()->view(QStringLiteral("userAnnotations")));
        QVERIFY(view && view->hasResult());
        QTRY_VERIFY(view->isVisible());
        QVERIFY(view->variantChooser()->isVisible());
        auto* panel = view->findChild<widgets::UserAnnotationPanel*>();
        QVERIFY(panel);
        widgets::AnnotationPie* pie = panel->pie();
        QTRY_VERIFY(pie->isVisible());
        QVERIFY2(pie->pieDiameter() >= 100, qPrintable(QString::number(pie->pieDiameter())));
        QCOMPARE(pie->legendRowsShown(), static_cast<int>(pie->slices().size()));
        // The CPU time's 13 annotations: more than the legend has rows for.
        window.applyViewCommands(QStringLiteral("variant=CPU time"));
        QCOMPARE(view->currentVariant(), 1);
        panel = view->findChild<widgets::UserAnnotationPanel*>();
        QVERIFY(panel);
        pie = panel->pie();
        QTRY_VERIFY(pie->isVisible());
        // As many as the legend has rows for (at least six named), the rest as "other".
        QVERIFY2(pie->slices().size() >= 7, qPrintable(QString::number(pie->slices().size())));
        QVERIFY(!pie->slices().back().searchable);
        QCOMPARE(pie->legendRowsShown(), static_cast<int>(pie->slices().size()));
        // A slice finds its annotation on the timeline.
        QTest::mouseClick(pie, Qt::LeftButton, {}, pie->pointInSlice(0));
        QCOMPARE(window.timeline()->searchField()->text(), pie->slices().front().name);

        window.applyViewCommands(QStringLiteral("view=kernelDurations;variant=User annotation"));
        auto* kernels =
            qobject_cast<AnalysisView*>(window.navigator()->view(QStringLiteral("kernelDurations")));
        QVERIFY(kernels && kernels->hasResult());
        QCOMPARE(kernels->chartKind(), AnalysisChartKind::KernelsByAnnotation);
        QTRY_VERIFY(kernels->chart()->isVisible());
    }
};

KS_TEST_MAIN(tst_user_annotation_views, TestUserAnnotationViews)
#include "tst_user_annotation_views.moc"
