#pragma once

#include "app/gui/opening/load_controller.h"
#include "widgets/common/task_tracker.h"

#include <QObject>
#include <QString>

#include <memory>

namespace ks::core {
struct DiffTrace;
}

namespace ks::widgets {
class TimelineData;
}

namespace ks::app {

// One side (control or test) of the compare window: loads a file or folder
// with a LoadController, then builds its timeline data and diff trace off the
// GUI thread. A new start() drops whatever an earlier one still produces.
class CompareSideLoader : public QObject
{
    Q_OBJECT

public:
    struct Prepared
    {
        TraceSetPtr set;
        std::shared_ptr<const widgets::TimelineData> timeline; // without diff classes
        std::shared_ptr<const core::DiffTrace> diff;
    };

    explicit CompareSideLoader(widgets::TaskPools* pools, QObject* parent = nullptr);

    void start(const QString& path);
    void cancel();

    bool isBusy() const { return m_busy; }

    LoadController* controller() const { return m_loader; }

    // Valid after ready(); empty before and after a failure.
    const Prepared& prepared() const { return m_prepared; }

signals:
    void ready();
    void failed(const QString& message);
    void cancelled();
    void busyChanged(bool busy);

private:
    void onLoaded(const TraceSetPtr& set);
    void setBusy(bool busy);

    LoadController* m_loader = nullptr;
    Prepared m_prepared;
    widgets::TaskTracker m_preparation; // timeline data and diff trace of the loaded set
    bool m_busy = false;
};

} // namespace ks::app
