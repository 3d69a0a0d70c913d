#include "app/gui/compare_side_loader.h"

#include "core/analysis/trace_diff.h"
#include "widgets/timeline/timeline_data.h"

#include <QtConcurrent>

namespace ks::app {

namespace {

    // What the background step hands back: both products, or why the diff trace failed.
    struct Preparation
    {
        std::shared_ptr<const widgets::TimelineData> timeline;
        std::shared_ptr<const core::DiffTrace> diff;
        QString error;
    };

} // namespace

CompareSideLoader::CompareSideLoader(QObject* parent)
    : QObject(parent)
    , m_loader(new LoadController(this))
{
    connect(m_loader, &LoadController::loadFinished, this,
        [this](const TraceSetPtr& set, const QStringList&, qint64) { onLoaded(set); });
    connect(m_loader, &LoadController::loadFailed, this, [this](const QString& message, const QStringList&) {
        setBusy(false);
        emit failed(message);
    });
    connect(m_loader, &LoadController::loadCancelled, this, [this] {
        setBusy(false);
        emit cancelled();
    });
}

void CompareSideLoader::start(const QString& path)
{
    ++m_generation;
    m_prepared = {};
    setBusy(true);
    m_loader->start({ path });
}

void CompareSideLoader::cancel()
{
    ++m_generation; // a preparation still running is dropped on arrival
    if (m_loader->isLoading())
        m_loader->cancel();
    else if (m_busy) {
        setBusy(false);
        emit cancelled();
    }
}

void CompareSideLoader::onLoaded(const TraceSetPtr& set)
{
    if (set->ranks.empty()) {
        setBusy(false);
        const QString why = set->failures.empty()
            ? QString::fromStdString(core::nothingToAnalyse(set->inputs, set->skipped))
            : QString::fromStdString(set->failures.front().describe());
        emit failed(why);
        return;
    }
    const std::uint64_t generation = m_generation;
    QtConcurrent::run([set] {
        Preparation p;
        // Sequential inside: both sides prepare at once on the global pool, and a
        // blockingMap from each onto that same pool deadlocks once it is full (2 cores).
        p.timeline = widgets::TimelineData::build(
            set, [](std::size_t n, const std::function<void(std::size_t)>& body) {
                for (std::size_t i = 0; i < n; ++i)
                    body(i);
            });
        auto diff = core::loadDiffTrace(*set, core::AnalysisMode::Default);
        if (diff)
            p.diff = std::make_shared<const core::DiffTrace>(std::move(diff).value());
        else
            p.error = QString::fromStdString(diff.error().describe());
        return p;
    }).then(this, [this, set, generation](Preparation p) {
        if (generation != m_generation)
            return;
        setBusy(false);
        if (!p.diff) {
            emit failed(p.error);
            return;
        }
        m_prepared = { set, std::move(p.timeline), std::move(p.diff) };
        emit ready();
    });
}

void CompareSideLoader::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace ks::app
