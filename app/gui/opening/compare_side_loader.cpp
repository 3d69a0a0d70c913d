#include "app/gui/opening/compare_side_loader.h"

#include "core/analysis/hta/trace_diff.h"
#include "widgets/timeline/model/timeline_data.h"

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

CompareSideLoader::CompareSideLoader(widgets::TaskPools* pools, QObject* parent)
    : QObject(parent)
    , m_loader(new LoadController(pools, this))
    , m_preparation(pools, this)
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
    m_preparation.cancel();
    m_prepared = {};
    setBusy(true);
    m_loader->start({ path });
}

void CompareSideLoader::cancel()
{
    m_preparation.cancel(); // a preparation still running is dropped on arrival
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
    m_preparation.start(
        [set](const widgets::TaskContext& job) {
            Preparation p;
            p.timeline = widgets::TimelineData::build(set, job.parallelFor);
            auto diff = core::loadDiffTrace(*set, core::AnalysisMode::Default);
            if (diff)
                p.diff = std::make_shared<const core::DiffTrace>(std::move(diff).value());
            else
                p.error = QString::fromStdString(diff.error().describe());
            return p;
        },
        [this, set](Preparation p) {
            setBusy(false);
            if (!p.diff) {
                emit failed(p.error);
                return;
            }
            m_prepared = { set, std::move(p.timeline), std::move(p.diff) };
            emit ready();
        },
        [this](const widgets::TaskFailure& failure) {
            setBusy(false);
            emit failed(tr("Preparing the comparison failed: %1").arg(failure.message));
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
