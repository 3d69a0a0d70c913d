// The navigator's views (issue 24 item 1): one row each. Analysis views carry
// their result key (an HTA call name, or AnalysisRunner's own keys) as the
// "resultKey" property that MainWindow::showAnalysisResults reads.
#include "app/gui/views/view_registry.h"

#include "app/gui/session/analysis_runner.h"
#include "app/gui/main_window/main_window.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/common/diagnostics_panel.h"
#include "widgets/common/trace_set_summary_view.h"
#include "widgets/efficiency/efficiency_view.h"
#include "widgets/overview/overview_page.h"

#include <QCoreApplication>

namespace ks::app {

namespace {

    using widgets::AnalysisChartKind;

    template <AnalysisChartKind Kind>
    widgets::AnalysisView* analysisView(MainWindow& window, const char* resultKey)
    {
        auto* view = new widgets::AnalysisView(Kind, &window);
        view->setProperty(MainWindow::kResultKeyProperty, QString::fromLatin1(resultKey));
        return view;
    }

    // Issue 22 item 3: the user annotations' GPU or CPU time, one chooser above the view.
    QWidget* userAnnotationsView(MainWindow& window)
    {
        auto* view =
            analysisView<AnalysisChartKind::UserAnnotations>(window, "get_gpu_user_annotation_breakdown");
        view->setVariants(QCoreApplication::translate("ks::app::ViewRegistry", "Time:"),
            { { QCoreApplication::translate("ks::app::ViewRegistry", "GPU time"),
                  AnalysisChartKind::UserAnnotations, "get_gpu_user_annotation_breakdown" },
                { QCoreApplication::translate("ks::app::ViewRegistry", "CPU time"),
                    AnalysisChartKind::UserAnnotations, "get_gpu_user_annotation_breakdown__cpu" } });
        return view;
    }

    // Issue 22 item 3: kernels by name (A3's durations) or grouped by the annotation they ran under.
    QWidget* kernelDurationsView(MainWindow& window)
    {
        auto* view = analysisView<AnalysisChartKind::KernelDurations>(window, "get_gpu_kernel_breakdown");
        view->setVariants(QCoreApplication::translate("ks::app::ViewRegistry", "Group by:"),
            { { QCoreApplication::translate("ks::app::ViewRegistry", "Kernel"),
                  AnalysisChartKind::KernelDurations, "get_gpu_kernel_breakdown" },
                { QCoreApplication::translate("ks::app::ViewRegistry", "User annotation"),
                    AnalysisChartKind::KernelsByAnnotation, AnalysisRunner::kKernelsByAnnotationKey } });
        return view;
    }

#define KS_ANALYSIS_VIEW(kind, key)                                                                          \
    [](MainWindow& w) -> QWidget* { return analysisView<AnalysisChartKind::kind>(w, key); }
#define KS_TITLE(text) QT_TRANSLATE_NOOP("ks::app::ViewRegistry", text)

    constexpr ViewSpec kViews[] = {
        // Issue 23's page: headline numbers and the findings, largest gain first.
        { "overview", KS_TITLE("Overview"), ViewGroup::Overview,
            [](MainWindow& w) -> QWidget* { return w.overviewPage(); } },
        // Every rank (how it was found, events, streams, span), categories, file metadata.
        { "rankSummary", KS_TITLE("Rank Summary"), ViewGroup::Overview,
            [](MainWindow& w) -> QWidget* { return w.summaryView(); } },
        { "temporal", KS_TITLE("Temporal Breakdown"), ViewGroup::Time,
            KS_ANALYSIS_VIEW(Temporal, "get_temporal_breakdown") },
        { "idle", KS_TITLE("Idle Time"), ViewGroup::Time, KS_ANALYSIS_VIEW(Idle, "get_idle_time_breakdown") },
        { "overlap", KS_TITLE("Comm/Comp Overlap"), ViewGroup::Time,
            KS_ANALYSIS_VIEW(Overlap, "get_comm_comp_overlap") },
        { "userAnnotations", KS_TITLE("User Annotations"), ViewGroup::Time, userAnnotationsView },
        { "kernelTypes", KS_TITLE("Kernel Types"), ViewGroup::Kernels,
            KS_ANALYSIS_VIEW(KernelTypes, "get_gpu_kernel_breakdown") },
        { "kernelDurations", KS_TITLE("Kernel Durations"), ViewGroup::Kernels, kernelDurationsView },
        { "launchStats", KS_TITLE("Kernel Launches"), ViewGroup::Kernels,
            KS_ANALYSIS_VIEW(LaunchStats, "get_cuda_kernel_launch_stats") },
        { "efficiency", KS_TITLE("Efficiency"), ViewGroup::Efficiency,
            [](MainWindow& w) -> QWidget* { return w.efficiencyView(); } },
        { "operators", KS_TITLE("Operators"), ViewGroup::Operators,
            KS_ANALYSIS_VIEW(Operators, AnalysisRunner::kOperatorStatsKey) },
        { "atenOpDelays", KS_TITLE("ATen Op Launch Delays"), ViewGroup::Operators,
            KS_ANALYSIS_VIEW(TableOnly, "get_aten_op_kernels_and_delay") },
        { "memoryBw", KS_TITLE("Memory Bandwidth"), ViewGroup::MemoryAndCounters,
            KS_ANALYSIS_VIEW(MemoryBandwidth, "get_memory_bw_summary") },
        { "queueLength", KS_TITLE("Queue Length"), ViewGroup::MemoryAndCounters,
            KS_ANALYSIS_VIEW(QueueLength, "get_queue_length_summary") },
        { "cuptiCounters", KS_TITLE("CUPTI Counters"), ViewGroup::MemoryAndCounters,
            KS_ANALYSIS_VIEW(TableOnly, "get_cupti_counter_data_with_operators") },
        { "rankOverview", KS_TITLE("Rank Overview"), ViewGroup::Job,
            KS_ANALYSIS_VIEW(RankOverview, AnalysisRunner::kRankOverviewKey) },
        { "jobPath", KS_TITLE("Job Critical Path"), ViewGroup::Job,
            [](MainWindow& w) -> QWidget* { return w.jobPathPanel(); } },
        { "htaStragglers", KS_TITLE("HTA's Potential Stragglers"), ViewGroup::Job,
            KS_ANALYSIS_VIEW(TableOnly, "get_potential_stragglers") },
        { "diagnostics", KS_TITLE("Import Diagnostics"), ViewGroup::Diagnostics,
            [](MainWindow& w) -> QWidget* { return w.diagnosticsPanel(); } },
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
    return QCoreApplication::translate("ks::app::ViewRegistry", kTitles[static_cast<int>(group)]);
}

std::span<const ViewSpec> viewSpecs()
{
    return kViews;
}

} // namespace ks::app
