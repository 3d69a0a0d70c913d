#include "widgets/timeline/view/timeline_widget.h"

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/model/trace_set.h"
#include "core/session/trace_analyses.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/critical_path_marks.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/render/timeline_legend.h"
#include "widgets/timeline/render/timeline_renderer.h"
#include "widgets/timeline/view/timeline_export.h"
#include "widgets/timeline/view/timeline_view.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace ks::widgets {

namespace {

    constexpr int kExpandedRanksAtOpen = 2;

    QToolButton* toolButton(QWidget* parent, QStyle::StandardPixmap icon, const QString& tip)
    {
        auto* b = new QToolButton(parent);
        b->setIcon(parent->style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAutoRaise(true);
        return b;
    }

    QString elided(const QString& text, int chars)
    {
        return text.size() <= chars ? text : text.left(chars - 1) + QChar(u'…');
    }

} // namespace

TimelineWidget::TimelineWidget(TimelineViewState* state, TaskPools* pools, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_view(new TimelineView(state, this))
    , m_scroll(new QScrollBar(Qt::Vertical, this))
    , m_searchDebounce(new QTimer(this))
    , m_buildTasks(pools, this)
    , m_searchTasks(pools, this)
    , m_criticalPathTasks(pools, this)
    , m_jobPathTasks(pools, this)
{
    setObjectName(QStringLiteral("timelineWidget"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 4);
    bar->setSpacing(4);
    setupToolbar(bar);
    auto* body = new QHBoxLayout;
    body->setContentsMargins(0, 0, 0, 0);
    body->setSpacing(0);
    body->addWidget(m_view, 1);
    body->addWidget(m_scroll);
    // Under the view: the colour legend and what is under the mouse.
    auto* footer = new QHBoxLayout;
    footer->setContentsMargins(8, 2, 8, 2);
    footer->addWidget(m_legend);
    footer->addStretch(1);
    footer->addWidget(m_hover);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addLayout(body, 1);
    layout->addLayout(footer);
    m_searchDebounce->setSingleShot(true);
    m_searchDebounce->setInterval(250);
    setupConnections();
    updateScrollBar();
}

TimelineWidget::~TimelineWidget() = default;

void TimelineWidget::setupToolbar(QHBoxLayout* bar)
{
    m_back = toolButton(this, QStyle::SP_ArrowBack, tr("Back in zoom history (Alt+Left)"));
    m_forward = toolButton(this, QStyle::SP_ArrowForward, tr("Forward in zoom history (Alt+Right)"));
    m_fit = new QToolButton(this);
    m_fit->setText(tr("Fit"));
    m_fit->setToolTip(tr("Show the whole trace (F)"));
    m_fit->setAutoRaise(true);
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("timelineSearch"));
    m_search->setPlaceholderText(tr("Search slices by name (Ctrl+F)…"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(220);
    m_regex = m_search->addAction(QIcon(), QLineEdit::TrailingPosition);
    m_regex->setText(QStringLiteral(".*"));
    m_regex->setCheckable(true);
    m_regex->setToolTip(tr("Regular expression"));
    m_caseSensitive = new QAction(QStringLiteral("Aa"), this);
    m_caseSensitive->setCheckable(true);
    m_caseSensitive->setToolTip(tr("Match case"));
    auto* regexButton = new QToolButton(this);
    regexButton->setDefaultAction(m_regex);
    regexButton->setAutoRaise(true);
    auto* caseButton = new QToolButton(this);
    caseButton->setDefaultAction(m_caseSensitive);
    caseButton->setAutoRaise(true);
    m_prev = toolButton(this, QStyle::SP_ArrowUp, tr("Previous match (Shift+Enter)"));
    m_next = toolButton(this, QStyle::SP_ArrowDown, tr("Next match (Enter)"));
    m_matches = new QLabel(this);
    m_matches->setObjectName(QStringLiteral("timelineMatches"));
    m_matches->setMinimumWidth(110);
    m_colorMode = new QComboBox(this);
    m_colorMode->addItem(tr("By kind"), int(ColorMode::KernelType));
    m_colorMode->addItem(tr("By name"), int(ColorMode::Name));
    m_colorMode->addItem(tr("Critical path"), int(ColorMode::CriticalPath));
    m_colorMode->addItem(tr("Job critical path"), int(ColorMode::JobPath));
    m_colorMode->setObjectName(QStringLiteral("timelineColorMode"));
    m_colorMode->setToolTip(
        tr("Colour slices by kind of work, by name (C), by whether they lie on their rank's "
           "critical path (P; computed when first chosen), or on the job's critical path across "
           "ranks by bound type (Shift+P; arrows mark where it hops between ranks)"));
    m_alignment = new QComboBox(this);
    m_alignment->setObjectName(QStringLiteral("timelineAlignment"));
    m_alignment->addItem(tr("Recorded time"), int(Alignment::Mode::AsRecorded));
    m_alignment->addItem(tr("Aligned starts"), int(Alignment::Mode::RankStart));
    m_alignment->addItem(tr("Estimated clocks"), int(Alignment::Mode::EstimatedClocks));
    m_alignment->setToolTip(
        tr("Ranks at their recorded timestamps, each shifted to start with the earliest (R), on clocks "
           "estimated from the common ends of collectives (offsets in the Ranks panel), "
           "or on a collective (right-click a GPU kernel)"));
    m_alignment->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_flows = new QToolButton(this);
    m_flows->setText(tr("All Flows"));
    m_flows->setCheckable(true);
    m_flows->setAutoRaise(true);
    m_flows->setToolTip(
        tr("Draw launch → kernel arrows for every kernel in view (the selected slice's are always drawn)"));
    m_legend = new TimelineLegend(this);
    m_hover = new QLabel(this);
    m_hover->setObjectName(QStringLiteral("timelineHover"));
    m_hover->setTextFormat(Qt::PlainText);
    for (QWidget* w : std::initializer_list<QWidget*> { m_back, m_forward, m_fit })
        bar->addWidget(w);
    bar->addSpacing(8);
    for (QWidget* w :
        std::initializer_list<QWidget*> { m_search, regexButton, caseButton, m_prev, m_next, m_matches })
        bar->addWidget(w);
    regexButton->hide(); // the trailing action in the field is enough
    bar->addSpacing(8);
    bar->addWidget(m_colorMode);
    bar->addWidget(m_alignment);
    bar->addWidget(m_flows);
    bar->addStretch(1);
}

void TimelineWidget::setupConnections()
{
    connect(m_back, &QToolButton::clicked, m_state, &TimelineViewState::goBack);
    connect(m_forward, &QToolButton::clicked, m_state, &TimelineViewState::goForward);
    connect(m_fit, &QToolButton::clicked, m_state, &TimelineViewState::fitAll);
    connect(m_state, &TimelineViewState::historyChanged, this, [this] {
        m_back->setEnabled(m_state->canGoBack());
        m_forward->setEnabled(m_state->canGoForward());
    });
    connect(m_search, &QLineEdit::textChanged, m_searchDebounce, qOverload<>(&QTimer::start));
    connect(m_regex, &QAction::toggled, this, [this] { searchNow(); });
    connect(m_caseSensitive, &QAction::toggled, this, [this] { searchNow(); });
    connect(m_searchDebounce, &QTimer::timeout, this, [this] { searchNow(); });
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (m_searchDebounce->isActive())
            searchNow(true);
        stepSearch(true);
    });
    connect(m_prev, &QToolButton::clicked, this, [this] { stepSearch(false); });
    connect(m_next, &QToolButton::clicked, this, [this] { stepSearch(true); });
    connect(m_view, &TimelineView::searchStepRequested, this, &TimelineWidget::stepSearch);
    connect(m_view, &TimelineView::searchFocusRequested, this, &TimelineWidget::focusSearch);
    connect(m_colorMode, &QComboBox::currentIndexChanged, this,
        [this] { m_state->setColorMode(ColorMode(m_colorMode->currentData().toInt())); });
    connect(m_alignment, &QComboBox::activated, this, [this] {
        switch (Alignment::Mode(m_alignment->currentData().toInt())) {
        case Alignment::Mode::AsRecorded:
            m_state->setAlignment(Alignment::AsRecorded);
            break;
        case Alignment::Mode::RankStart:
            m_state->setAlignment(Alignment::RankStart);
            break;
        case Alignment::Mode::EstimatedClocks:
            m_state->setAlignment(Alignment::EstimatedClocks);
            break;
        case Alignment::Mode::Collective:
            if (m_lastAnchor)
                m_state->setAlignment(Alignment::onCollective(m_lastAnchor));
            break;
        }
    });
    connect(m_flows, &QToolButton::toggled, m_state, &TimelineViewState::setShowAllFlows);
    connect(m_state, &TimelineViewState::appearanceChanged, this, [this] {
        m_colorMode->setCurrentIndex(m_colorMode->findData(int(m_state->colorMode())));
        m_flows->setChecked(m_state->showAllFlows());
        m_legend->setColorMode(m_state->colorMode());
        updateLegendNote();
        if (m_state->colorMode() == ColorMode::CriticalPath)
            startCriticalPaths();
    });
    connect(m_state, &TimelineViewState::alignmentChanged, this, [this] {
        syncAlignmentBox();
        if (m_results && !m_results->query.isEmpty())
            searchNow(); // matches are ordered in display time
    });
    connect(m_state, &TimelineViewState::selectedSliceChanged, this, &TimelineWidget::updateMatchLabel);
    connect(m_view, &TimelineView::hoverTextChanged, m_hover, &QLabel::setText);
    connect(m_view, &TimelineView::contentHeightChanged, this, &TimelineWidget::updateScrollBar);
    connect(m_view, &TimelineView::scrollYChanged, m_scroll, &QScrollBar::setValue);
    connect(m_scroll, &QScrollBar::valueChanged, m_view, &TimelineView::setScrollY);
}

void TimelineWidget::syncAlignmentBox()
{
    const Alignment& a = m_state->alignment();
    if (a.mode == Alignment::Mode::Collective && a.anchor)
        m_lastAnchor = a.anchor;
    const int collective = m_alignment->findData(int(Alignment::Mode::Collective));
    if (m_lastAnchor) {
        // The choice stays in the box: the user can go back to it after "Recorded time".
        const QString text = tr("On %1 #%2")
                                 .arg(elided(shortSliceName(m_lastAnchor->name), 28))
                                 .arg(m_lastAnchor->ordinal + 1);
        if (collective < 0)
            m_alignment->addItem(text, int(Alignment::Mode::Collective));
        else
            m_alignment->setItemText(collective, text);
        const int idx = m_alignment->findData(int(Alignment::Mode::Collective));
        m_alignment->setItemData(idx,
            (m_lastAnchor->group.isEmpty()
                    ? tr("Each rank shifted so that instance #%1 of %2 starts together (%3 of %4 ranks have "
                         "it)")
                    : tr("The members of group %5 shifted so that instance #%1 of %2 starts together "
                         "(%3 of %4 ranks are members)")
                          .arg(m_lastAnchor->group))
                .arg(m_lastAnchor->ordinal + 1)
                .arg(m_lastAnchor->name)
                .arg(m_lastAnchor->ranksFound)
                .arg(m_lastAnchor->offsets.size()),
            Qt::ToolTipRole);
    } else if (collective >= 0) {
        m_alignment->removeItem(collective);
    }
    m_alignment->setCurrentIndex(m_alignment->findData(int(a.mode)));
}

void TimelineWidget::updateScrollBar()
{
    const int page = m_view->scrollViewportHeight();
    m_scroll->setRange(0, std::max(0, m_view->contentHeight() - page));
    m_scroll->setPageStep(std::max(1, page));
    m_scroll->setSingleStep(18);
    m_scroll->setValue(m_view->scrollY());
}

void TimelineWidget::setTraceSet(std::shared_ptr<const core::TraceSet> set)
{
    setAnalyses(set ? std::make_shared<core::TraceAnalyses>(std::move(set)) : nullptr);
}

void TimelineWidget::setAnalyses(std::shared_ptr<core::TraceAnalyses> analyses)
{
    const std::shared_ptr<const core::TraceSet> set = analyses ? analyses->traceSet() : nullptr;
    // The job path of the previous set must not be matched against this one's slices.
    m_jobPath.reset();
    m_jobPathTasks.cancel();
    if (!set) {
        m_buildTasks.cancel();
        m_preparing = false;
        setData(nullptr);
        return;
    }
    m_preparing = true;
    m_buildTasks.start(
        [set, analyses](const TaskContext& job) {
            return std::shared_ptr<const TimelineData>(TimelineData::build(set, job.parallelFor, analyses));
        },
        [this](std::shared_ptr<const TimelineData> data) {
            setData(data);
            startAnalysisCounters(data);
        },
        [this](const TaskFailure& failure) {
            m_preparing = false;
            setData(nullptr);
            emit jobFailed(tr("The timeline could not be built: %1").arg(failure.message));
            emit ready();
        });
}

void TimelineWidget::startAnalysisCounters(std::shared_ptr<const TimelineData> data)
{
    // On the build's tracker: a newer trace set supersedes these counters too.
    m_buildTasks.start(
        [data](const TaskContext& job) {
            std::vector<CounterTracks> perRank(static_cast<std::size_t>(data->rankCount()));
            job.parallelFor(perRank.size(),
                [&](std::size_t r) { perRank[r] = buildAnalysisCounters(*data->set, static_cast<int>(r)); });
            return perRank;
        },
        [this](std::vector<CounterTracks> perRank) {
            // Added to the data shown now: it may have gained the critical paths meanwhile.
            setData(m_data->withAnalysisCounters(std::move(perRank)), false);
            m_preparing = false;
            emit ready();
        },
        [this](const TaskFailure& failure) {
            // The timeline stays, without the queue-length and bandwidth counters.
            m_preparing = false;
            emit jobFailed(
                tr("The timeline's analysis counters could not be computed: %1").arg(failure.message));
            emit ready();
        });
}

void TimelineWidget::startCriticalPaths()
{
    if (!m_data || !m_data->set || m_data->hasCriticalPaths() || m_criticalPathsRequested)
        return;
    m_criticalPathsRequested = true;
    m_legend->setNote(tr("computing the critical path of %n rank(s)…", nullptr, m_data->rankCount()));
    auto set = m_data->set;
    m_criticalPathTasks.start(
        [set](const TaskContext& job) {
            std::vector<CriticalPathMarks> perRank(set->ranks.size());
            job.parallelFor(perRank.size(), [&](std::size_t r) {
                perRank[r] = computeCriticalPathMarks(*set, static_cast<int>(r), job.cancel);
            });
            return perRank;
        },
        [this](std::vector<CriticalPathMarks> perRank) {
            setData(m_data->withCriticalPaths(std::move(perRank)), false);
            updateCriticalPathNote();
            emit criticalPathsReady();
        },
        [this](const TaskFailure& failure) {
            m_legend->setNote(tr("critical paths not computed: %1").arg(failure.message));
            emit criticalPathsReady();
        });
}

void TimelineWidget::setJobPath(std::shared_ptr<const core::JobCriticalPath> job)
{
    m_jobPath = std::move(job);
    startJobPathMarks();
}

void TimelineWidget::startJobPathMarks()
{
    m_jobPathTasks.cancel();
    if (!m_data || !m_data->set)
        return;
    if (!m_jobPath) {
        if (m_data->jobPath) {
            setData(m_data->withJobPath(nullptr), false);
            emit jobPathReady();
        }
        return;
    }
    auto set = m_data->set;
    auto job = m_jobPath;
    m_jobPathTasks.start([set, job](const TaskContext&) { return computeJobPathMarks(*set, *job); },
        [this, set](JobPathMarks marks) {
            if (!m_data || m_data->set != set) // another trace set since
                return;
            setData(m_data->withJobPath(std::make_shared<const JobPathMarks>(std::move(marks))), false);
            updateLegendNote();
            emit jobPathReady();
        },
        [this](const TaskFailure& failure) {
            m_legend->setNote(tr("the job path's slices were not found: %1").arg(failure.message));
            emit jobPathReady();
        });
}

void TimelineWidget::updateLegendNote()
{
    switch (m_state->colorMode()) {
    case ColorMode::CriticalPath:
        if (m_data && m_data->hasCriticalPaths())
            updateCriticalPathNote();
        else
            m_legend->setNote(m_criticalPathsRequested ? tr("computing the critical paths…") : QString());
        return;
    case ColorMode::JobPath:
        if (!m_data || !m_data->jobPath) {
            m_legend->setNote(m_jobPath ? tr("finding the job path's slices…")
                                        : tr("the job path comes with the analyses"));
            return;
        }
        m_legend->setNote(
            tr("path %1 · %n hop(s) (arrows)", nullptr, static_cast<int>(m_data->jobPath->hops.size()))
                .arg(formatDuration(m_data->jobPath->length)));
        return;
    default:
        m_legend->setNote(QString());
        return;
    }
}

void TimelineWidget::updateCriticalPathNote()
{
    if (!m_data || !m_data->hasCriticalPaths())
        return;
    QStringList parts;
    QStringList problems;
    TimeNs shortest = -1;
    TimeNs longest = 0;
    std::size_t slices = 0;
    for (int r = 0; r < m_data->rankCount(); ++r) {
        const CriticalPathMarks* marks = m_data->criticalPath(r);
        if (!marks->problem.isEmpty()) {
            problems.append(m_data->rank(r).label + QStringLiteral(": ") + marks->problem);
            continue;
        }
        shortest = shortest < 0 ? marks->pathWeight : std::min(shortest, marks->pathWeight);
        longest = std::max(longest, marks->pathWeight);
        slices += marks->slices.size();
    }
    if (shortest >= 0) {
        parts.append(shortest == longest
                ? tr("path %1").arg(formatDuration(longest))
                : tr("paths %1 – %2").arg(formatDuration(shortest), formatDuration(longest)));
        parts.append(tr("%1 slices on it").arg(formatCount(slices)));
    }
    parts += problems;
    m_legend->setNote(parts.join(QStringLiteral(" · ")));
}

void TimelineWidget::setData(std::shared_ptr<const TimelineData> data, bool resetView)
{
    m_data = std::move(data);
    if (resetView) {
        // Critical paths computing for the data shown before are no longer wanted.
        m_criticalPathTasks.cancel();
        m_criticalPathsRequested = false;
        // An anchor names slices of the previous trace set.
        m_lastAnchor.reset();
        if (m_state->alignment().mode == Alignment::Mode::Collective)
            m_state->setAlignment(Alignment::AsRecorded);
        syncAlignmentBox();
        m_state->reset(m_data ? m_data->displayBounds(m_state->alignment()) : TimeRange { 0, 1 });
        // Many ranks: start with one overview strip per rank; expand the ones to look into.
        if (m_data && m_data->rankCount() > kExpandedRanksAtOpen)
            m_state->setAllCollapsed(m_data->rankCount(), true);
        m_results.reset();
        m_view->setSearch(nullptr);
    }
    m_view->setData(m_data);
    m_legend->setKinds(m_data ? m_data->kindMask() : ~0u);
    updateMatchLabel();
    if (resetView && !m_search->text().isEmpty())
        searchNow();
    if (resetView) {
        m_legend->setNote(QString());
        if (m_state->colorMode() == ColorMode::CriticalPath)
            startCriticalPaths();
        if (m_jobPath)
            startJobPathMarks();
        updateLegendNote();
    }
    emit dataChanged();
}

void TimelineWidget::addColorMode(ColorMode mode, const QString& label)
{
    if (m_colorMode->findData(int(mode)) < 0)
        m_colorMode->addItem(label, int(mode));
}

void TimelineWidget::showSearchResults(std::shared_ptr<const SearchResults> results)
{
    m_searchTasks.cancel(); // a search still running must not replace these
    applySearch(std::move(results));
}

void TimelineWidget::focusSearch()
{
    m_search->setFocus(Qt::ShortcutFocusReason);
    m_search->selectAll();
}

void TimelineWidget::searchNow(bool wait)
{
    m_searchDebounce->stop();
    m_searchTasks.cancel(); // this query replaces the one running, even when answered at once
    if (!m_data)
        return;
    SearchQuery query;
    query.text = m_search->text();
    query.regex = m_regex->isChecked();
    query.caseSensitive = m_caseSensitive->isChecked();
    const Alignment alignment = m_state->alignment();
    auto data = m_data;
    if (wait || query.isEmpty()) {
        applySearch(runSearch(*data, query, alignment));
        return;
    }
    m_matches->setText(tr("searching…"));
    m_searchTasks.start(
        [data, query, alignment](const TaskContext&) { return runSearch(*data, query, alignment); },
        [this](std::shared_ptr<const SearchResults> results) { applySearch(std::move(results)); },
        [this](const TaskFailure& failure) {
            applySearch(nullptr);
            m_matches->setText(tr("search failed: %1").arg(failure.message));
        });
}

void TimelineWidget::applySearch(std::shared_ptr<const SearchResults> results)
{
    m_results = std::move(results);
    m_view->setSearch(m_results);
    m_search->setToolTip(m_results && !m_results->error.isEmpty() ? m_results->error : QString());
    updateMatchLabel();
    emit searchResultsChanged();
}

void TimelineWidget::stepSearch(bool forward)
{
    if (!m_results || !m_data || m_results->ordered.empty())
        return;
    const std::ptrdiff_t next = m_results->nextIndex(*m_data, m_state->selectedSlice(), forward);
    if (next >= 0)
        m_view->revealSlice(m_results->ordered[static_cast<std::size_t>(next)]);
}

void TimelineWidget::updateMatchLabel()
{
    const bool has = m_results && !m_results->query.isEmpty();
    m_prev->setEnabled(has && m_results->size() > 0);
    m_next->setEnabled(has && m_results->size() > 0);
    if (!has) {
        m_matches->clear();
        return;
    }
    if (!m_results->error.isEmpty()) {
        m_matches->setText(tr("invalid pattern"));
        return;
    }
    const std::ptrdiff_t at = m_data ? m_results->indexOf(*m_data, m_state->selectedSlice()) : -1;
    const QString total = formatCount(m_results->size());
    m_matches->setText(at >= 0 ? tr("%1 of %2").arg(formatCount(static_cast<std::uint64_t>(at + 1)), total)
                               : tr("%1 matches").arg(total));
}

bool TimelineWidget::exportImage(const QString& path) const
{
    return exportTimelineImage(*m_view, path);
}

bool TimelineWidget::exportSvg(const QString& path) const
{
    return exportTimelineSvg(*m_view, path);
}

} // namespace ks::widgets
