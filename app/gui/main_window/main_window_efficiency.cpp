// MainWindow: the Efficiency view. Its widget lives in widgets/efficiency/;
// it is a view of the analysis navigator (view_registry.cpp), computed after each load and for the
// range selected on the timeline, linked to the timeline (a click on an op selects
// its longest call and highlights the others) and to the Details panel (an op call
// shows its FLOPs, bytes, TFLOP/s and % of roofline), and its chart and table export.
#include "app/gui/main_window/main_window.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/efficiency/efficiency_view.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/panels/slice_details_panel.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QDockWidget>
#include <QMenu>

#include <cmath>
#include <limits>

namespace ks::app {

namespace {

    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

    // NaN: a number TraceLens has none for (no bytes for a dtype without a size, no rate
    // for a row none of whose calls ran on the GPU).
    QString number(double v)
    {
        return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'g', 4);
    }

} // namespace

void MainWindow::setupEfficiency()
{
    // A view of the navigator (view_registry.cpp), wired here to the timeline and the exports.
    m_efficiency->setObjectName(QStringLiteral("efficiencyView"));
    // The session's report: the Overview's MFU over the same range reads the same one.
    const auto compute = [this] { m_efficiency->compute(m_session->analyses(), selectedWindow()); };
    connect(this, &MainWindow::loadEnded, this, compute);
    connect(m_timelineState, &widgets::TimelineViewState::selectedRangeChanged, this, compute);
    connect(m_efficiency, &widgets::EfficiencyView::callsActivated, this, &MainWindow::showEfficiencyCalls);
    connect(
        m_efficiency, &widgets::EfficiencyView::tableExportRequested, this, &MainWindow::exportTableDialog);
    connect(m_efficiency, &widgets::EfficiencyView::chartExportRequested, this,
        [this](widgets::ChartFormat format) {
            exportChart(*m_efficiency->chart(), QStringLiteral("roofline"), format);
        });
    // The Details panel of an op call: its row's numbers.
    const auto details = [this](widgets::SliceRef ref) -> QString {
        const core::EfficiencyRow* row =
            ref.valid() ? m_efficiency->rowOfCall(std::uint32_t(ref.rank), ref.slice) : nullptr;
        if (!row || !row->modelled)
            return {};
        QString html = tr("<h4>Efficiency</h4><p>%1 GFLOP, %2 MiB per call (%3 FLOP/B)<br>"
                          "%4 TFLOP/s, %5 TB/s (means over the %6 calls of this shape)")
                           .arg(number(row->flops / 1e9), number(row->bytes / 1048576.0),
                               number(row->bytesKnown() ? row->intensity() : kNone),
                               number(row->timedCalls ? row->tflopsMean : kNone),
                               number(row->timedCalls ? row->tbpsMean : kNone))
                           .arg(row->calls);
        if (row->peak)
            html += tr("<br>%1 % of roofline against %2 (%3-bound, roofline %4 µs)")
                        .arg(number(row->timedCalls ? row->rooflinePctMean : kNone),
                            QString::fromStdString(row->peak->label),
                            row->computeBound ? tr("compute") : tr("memory"), number(row->rooflineTimeUs));
        return html + QStringLiteral("</p>");
    };
    connect(m_efficiency, &widgets::EfficiencyView::computed, this,
        [this, details] { m_details->setExtraSection(details); });
}

void MainWindow::showEfficiencyCalls(const std::vector<core::EfficiencyCall>& calls)
{
    const TraceSetPtr set = traceSet();
    if (calls.empty() || !m_timeline->data() || !set)
        return;
    const core::EfficiencyCall& longest = calls.front();
    const widgets::SliceRef ref { int(longest.rankIndex), longest.slice };
    m_timelineState->setSelectedSlice(ref);
    m_timeline->view()->revealSlice(ref, true);
    const auto& rank = *set->ranks[longest.rankIndex];
    statusBar()->showMessage(
        tr("%1: the longest of %n call(s) selected; its Details list the kernels it launched", nullptr,
            int(calls.size()))
            .arg(QString::fromStdString(std::string(rank.sliceName(longest.slice)))),
        5000);
}

} // namespace ks::app
