#include "app/gui/session/trace_session.h"

#include "core/analysis/cross_rank/what_if.h"

#include <algorithm>
#include <utility>

namespace ks::app {

TraceSession::TraceSession(widgets::TaskPools* pools, QObject* parent)
    : QObject(parent)
    , m_runner(new AnalysisRunner(pools, this))
    , m_whatIfTasks(pools, this)
{
    connect(m_runner, &AnalysisRunner::started, this, &TraceSession::analysesStarted);
    connect(m_runner, &AnalysisRunner::finished, this, &TraceSession::analysesReady);
    connect(m_runner, &AnalysisRunner::jobPathStarted, this, [this] {
        m_jobPath.reset();
        emit jobPathStarted();
    });
    connect(m_runner, &AnalysisRunner::jobPathFinished, this, &TraceSession::onJobPathFinished);
    connect(m_runner, &AnalysisRunner::operatorsFinished, this, &TraceSession::operatorsReady);
    connect(m_runner, &AnalysisRunner::operatorsFailed, this, &TraceSession::operatorsFailed);
}

TraceSession::~TraceSession() = default;

void TraceSession::setTraceSet(TraceSetPtr set)
{
    m_runner->clear();
    m_whatIfTasks.cancel();
    m_pendingWhatIf.clear();
    m_jobPath.reset();
    m_set = std::move(set);
    m_analyses = m_set && !m_set->ranks.empty() ? std::make_shared<core::TraceAnalyses>(m_set) : nullptr;
    emit loaded(m_set);
}

void TraceSession::addShownOutputs(const std::vector<core::OutputKey>& keys)
{
    for (const core::OutputKey key : keys)
        if (std::find(m_shown.begin(), m_shown.end(), key) == m_shown.end())
            m_shown.push_back(key);
}

void TraceSession::startAnalyses(core::AnalysisMode mode, std::optional<AnalysisWindow> window, bool anyway)
{
    m_jobPath.reset();
    if (!m_analyses) {
        m_runner->clear();
        return;
    }
    m_runner->start(m_analyses, m_shown, mode, window, anyway);
}

void TraceSession::startJobPath(bool firstIterationOnly)
{
    m_runner->startJobPath(firstIterationOnly);
}

void TraceSession::startOperators(std::optional<AnalysisWindow> window)
{
    m_runner->startOperators(m_analyses, window);
}

bool TraceSession::analysesRunning() const
{
    return m_runner->isRunning();
}

bool TraceSession::jobPathRunning() const
{
    return m_runner->isJobPathRunning();
}

std::shared_ptr<const core::FrameSet> TraceSession::jobPathFrames(
    const std::optional<AnalysisWindow>& window) const
{
    if (!m_jobPath || !m_jobPath->frames())
        return nullptr;
    const auto& covered = m_jobPath->window;
    if (!covered)
        return m_jobPath->frames(); // the whole trace: a reader narrows them
    return window && *window == *covered ? m_jobPath->frames() : nullptr;
}

void TraceSession::onJobPathFinished(const JobPathResultsPtr& results)
{
    m_jobPath = results;
    emit jobPathReady(results);
    if (m_pendingWhatIf.isEmpty())
        return;
    if (results->path()) {
        runWhatIf(std::exchange(m_pendingWhatIf, {}));
    } else {
        m_pendingWhatIf.clear();
        emit whatIfFailed(tr("the job's critical path was not computed"));
    }
}

void TraceSession::runWhatIf(const QStringList& rules)
{
    if (!m_jobPath || !m_jobPath->frames()) {
        if (!jobPathRunning()) {
            emit whatIfFailed(tr("the job's critical path was not computed"));
            return;
        }
        m_pendingWhatIf = rules; // the path is still computing: run it with the path
        return;
    }
    core::JobPathOptions options = m_jobPath->options; // the baseline's window: whole trace or one iteration
    std::vector<core::WhatIfRule> parsed;
    for (const QString& text : rules) {
        auto rule = core::parseWhatIfRule(text.toStdString());
        if (!rule) {
            emit whatIfFailed(QString::fromStdString(rule.error().message));
            return;
        }
        parsed.push_back(std::move(rule).value());
    }
    options.whatIf = core::WhatIfScaling(std::move(parsed));
    emit whatIfStarted(rules);
    auto frames = m_jobPath->frames();
    // A newer what-if supersedes this one; the tracker drops a superseded result.
    m_whatIfTasks.start(
        [frames, options](const widgets::TaskContext& task) mutable {
            options.cancel = task.cancel; // a newer what-if stops this one
            return core::jobCriticalPath(*frames, options, task.parallelFor);
        },
        [this, frames](core::Result<core::JobCriticalPath> job) {
            if (!m_jobPath || frames != m_jobPath->frames()) // another trace since
                return;
            if (!job) {
                emit whatIfFailed(QString::fromStdString(job.error().message));
                return;
            }
            emit whatIfReady(std::make_shared<const core::JobCriticalPath>(std::move(job).value()));
        },
        [this, frames](const widgets::TaskFailure& failure) {
            if (!m_jobPath || frames != m_jobPath->frames())
                return;
            emit whatIfFailed(tr("could not be computed: %1").arg(failure.message));
        });
}

bool TraceSession::whatIfRunning() const
{
    return !m_pendingWhatIf.isEmpty() || m_whatIfTasks.isRunning();
}

} // namespace ks::app
