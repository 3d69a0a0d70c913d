// The navigator's views: one row each. A view is made by its factory from a
// ViewContext; analysis views are bound to the session here (bindAnalysisView):
// they tell it the outputs they show and show what it computes.
#include "app/gui/views/view_registry.h"

#include "app/gui/session/trace_session.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/common/diagnostics_panel.h"
#include "widgets/common/trace_set_summary_view.h"
#include "widgets/efficiency/efficiency_view.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/memory/memory_view.h"
#include "widgets/memory_snapshot/snapshot_view.h"
#include "widgets/overview/overview_page.h"

#include <QCoreApplication>

#include <algorithm>

namespace ks::app {

namespace {

    using core::OutputKey;
    using widgets::AnalysisChartKind;

    QString tr(const char* text)
    {
        return QCoreApplication::translate("ks::app::ViewRegistry", text);
    }

    // The view shows the session's outputs of its keys: "Computing…" while they
    // compute, then the results, or why there are none.
    void bindAnalysisView(widgets::AnalysisView* view, TraceSession* session)
    {
        const std::vector<OutputKey> keys = view->outputKeys();
        session->addShownOutputs(keys);
        QObject::connect(session, &TraceSession::loaded, view, [view](const TraceSetPtr& set) {
            if (!set || set->ranks.empty())
                view->showMessage(tr("Open a trace to see this analysis."));
        });
        QObject::connect(
            session, &TraceSession::analysesStarted, view, [view] { view->showMessage(tr("Computing…")); });
        QObject::connect(
            session, &TraceSession::analysesReady, view, [view](const AnalysisResultsPtr& results) {
                if (!results->error.isEmpty())
                    view->showMessage(tr("The analyses could not run: %1").arg(results->error));
                else if (results->notComputed)
                    view->showNotComputed(results->notComputed->bytes, results->notComputed->budget);
                else
                    view->showOutputs([&results](OutputKey key) { return results->output(key); });
            });
        if (std::find(keys.begin(), keys.end(), OutputKey::OperatorStats) == keys.end())
            return;
        // The operators follow a range selected on the timeline on their own.
        QObject::connect(session, &TraceSession::operatorsReady, view,
            [view](const std::shared_ptr<const core::AnalysisOutput>& output) { view->setResult(output); });
        QObject::connect(session, &TraceSession::operatorsFailed, view,
            [view](const QString& message) { view->showMessage(tr("Could not compute: %1").arg(message)); });
    }

    template <AnalysisChartKind Kind>
    widgets::AnalysisView* analysisView(const ViewContext& context, OutputKey key)
    {
        auto* view = new widgets::AnalysisView(Kind, context.parent);
        view->setOutputKey(key);
        bindAnalysisView(view, context.session);
        return view;
    }

    // The user annotations' GPU or CPU time, one chooser above the view.
    QWidget* userAnnotationsView(const ViewContext& context)
    {
        auto* view = new widgets::AnalysisView(AnalysisChartKind::UserAnnotations, context.parent);
        view->setVariants(tr("Time:"),
            { { tr("GPU time"), AnalysisChartKind::UserAnnotations, OutputKey::UserAnnotationsGpu },
                { tr("CPU time"), AnalysisChartKind::UserAnnotations, OutputKey::UserAnnotationsCpu } });
        bindAnalysisView(view, context.session);
        return view;
    }

    // Kernels by name (A3's durations) or grouped by the annotation they ran under.
    QWidget* kernelDurationsView(const ViewContext& context)
    {
        auto* view = new widgets::AnalysisView(AnalysisChartKind::KernelDurations, context.parent);
        view->setVariants(tr("Group by:"),
            { { tr("Kernel"), AnalysisChartKind::KernelDurations, OutputKey::GpuKernelBreakdown },
                { tr("User annotation"), AnalysisChartKind::KernelsByAnnotation,
                    OutputKey::KernelsByAnnotation } });
        bindAnalysisView(view, context.session);
        return view;
    }

    // The memory analysis of each load, asked of the session when the view is shown
    // (the window hands it the timeline's range: main_window_memory.cpp).
    QWidget* memoryView(const ViewContext& context)
    {
        auto* view = new widgets::MemoryView(context.pools, context.parent);
        TraceSession* session = context.session;
        QObject::connect(session, &TraceSession::loaded, view,
            [view, session](const TraceSetPtr&) { view->setAnalyses(session->analyses()); });
        return view;
    }

#define KS_ANALYSIS_VIEW(kind, key)                                                                          \
    [](const ViewContext& c) -> QWidget* {                                                                   \
        return analysisView<AnalysisChartKind::kind>(c, OutputKey::key);                                     \
    },                                                                                                       \
        true
#define KS_TITLE(text) QT_TRANSLATE_NOOP("ks::app::ViewRegistry", text)

    constexpr ViewSpec kViews[] = {
        // Headline numbers and the findings, largest gain first (the window wires its links).
        { "overview", KS_TITLE("Overview"), ViewGroup::Overview,
            [](const ViewContext& c) -> QWidget* { return new widgets::OverviewPage(c.pools, c.parent); } },
        // Every rank (how it was found, events, streams, span), categories, file metadata.
        { "rankSummary", KS_TITLE("Rank Summary"), ViewGroup::Overview,
            [](const ViewContext& c) -> QWidget* { return new widgets::TraceSetSummaryView(c.parent); } },
        { "temporal", KS_TITLE("Temporal Breakdown"), ViewGroup::Time,
            KS_ANALYSIS_VIEW(Temporal, TemporalBreakdown) },
        { "idle", KS_TITLE("Idle Time"), ViewGroup::Time, KS_ANALYSIS_VIEW(Idle, IdleTimeBreakdown) },
        { "overlap", KS_TITLE("Comm/Comp Overlap"), ViewGroup::Time,
            KS_ANALYSIS_VIEW(Overlap, CommCompOverlap) },
        { "userAnnotations", KS_TITLE("User Annotations"), ViewGroup::Time, userAnnotationsView, true },
        { "kernelTypes", KS_TITLE("Kernel Types"), ViewGroup::Kernels,
            KS_ANALYSIS_VIEW(KernelTypes, GpuKernelBreakdown) },
        { "kernelDurations", KS_TITLE("Kernel Durations"), ViewGroup::Kernels, kernelDurationsView, true },
        { "launchStats", KS_TITLE("Kernel Launches"), ViewGroup::Kernels,
            KS_ANALYSIS_VIEW(LaunchStats, KernelLaunchStats) },
        { "efficiency", KS_TITLE("Efficiency"), ViewGroup::Efficiency,
            [](const ViewContext& c) -> QWidget* { return new widgets::EfficiencyView(c.pools, c.parent); } },
        { "operators", KS_TITLE("Operators"), ViewGroup::Operators,
            KS_ANALYSIS_VIEW(Operators, OperatorStats) },
        { "atenOpDelays", KS_TITLE("ATen Op Launch Delays"), ViewGroup::Operators,
            KS_ANALYSIS_VIEW(TableOnly, AtenOpDelays) },
        // Allocated and reserved memory per device, its peak, the allocations and the per-op statistics.
        { "memory", KS_TITLE("Memory"), ViewGroup::MemoryAndCounters, memoryView },
        // A PyTorch memory snapshot (.pickle), opened on its own: the window hands it the file
        // (main_window_snapshot.cpp); it follows no trace.
        { "memorySnapshot", KS_TITLE("Memory Snapshot"), ViewGroup::MemoryAndCounters,
            [](const ViewContext& c) -> QWidget* { return new widgets::SnapshotView(c.pools, c.parent); } },
        { "memoryBw", KS_TITLE("Memory Bandwidth"), ViewGroup::MemoryAndCounters,
            KS_ANALYSIS_VIEW(MemoryBandwidth, MemoryBwSummary) },
        { "queueLength", KS_TITLE("Queue Length"), ViewGroup::MemoryAndCounters,
            KS_ANALYSIS_VIEW(QueueLength, QueueLengthSummary) },
        { "cuptiCounters", KS_TITLE("CUPTI Counters"), ViewGroup::MemoryAndCounters,
            KS_ANALYSIS_VIEW(TableOnly, CuptiCounters) },
        { "rankOverview", KS_TITLE("Rank Overview"), ViewGroup::Job,
            KS_ANALYSIS_VIEW(RankOverview, RankOverview) },
        { "jobPath", KS_TITLE("Job Critical Path"), ViewGroup::Job,
            [](const ViewContext& c) -> QWidget* { return new widgets::JobPathPanel(c.parent); } },
        { "htaStragglers", KS_TITLE("HTA's Potential Stragglers"), ViewGroup::Job,
            KS_ANALYSIS_VIEW(TableOnly, PotentialStragglers) },
        { "diagnostics", KS_TITLE("Import Diagnostics"), ViewGroup::Diagnostics,
            [](const ViewContext& c) -> QWidget* { return new widgets::DiagnosticsPanel(c.parent); } },
    };

#undef KS_ANALYSIS_VIEW
#undef KS_TITLE

} // namespace

QString viewGroupTitle(ViewGroup group)
{
    static constexpr const char* kTitles[kViewGroupCount] = {
        QT_TRANSLATE_NOOP("ks::app::ViewRegistry", "Overview"),
        QT_TRANSLATE_NOOP("ks::app::ViewRegistry", "Time"),
        QT_TRANSLATE_NOOP("ks::app::ViewRegistry", "Kernels"),
        QT_TRANSLATE_NOOP("ks::app::ViewRegistry", "Efficiency"),
        QT_TRANSLATE_NOOP("ks::app::ViewRegistry", "Operators"),
        QT_TRANSLATE_NOOP("ks::app::ViewRegistry", "Memory and Counters"),
        QT_TRANSLATE_NOOP("ks::app::ViewRegistry", "Job"),
        QT_TRANSLATE_NOOP("ks::app::ViewRegistry", "Diagnostics"),
    };
    return tr(kTitles[static_cast<int>(group)]);
}

std::span<const ViewSpec> viewSpecs()
{
    return kViews;
}

int analysisViewCount()
{
    return static_cast<int>(std::count_if(
        std::begin(kViews), std::end(kViews), [](const ViewSpec& spec) { return spec.showsOutputs; }));
}

} // namespace ks::app
