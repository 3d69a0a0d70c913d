#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <QWidget>

#include <functional>
#include <memory>

class QTextBrowser;

namespace ks::widgets {

class TimelineData;
class TimelineViewState;

// T5: the details of the selected slice: name, category, rank, track, start,
// duration, every arg, its launch or GPU work and its call stack. Related
// slices are links; clicking one emits sliceActivated.
class SliceDetailsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit SliceDetailsPanel(TimelineViewState* state, QWidget* parent = nullptr);

    void setData(std::shared_ptr<const TimelineData> data);

    QTextBrowser* browser() const { return m_browser; }

    QString plainText() const;

    // More HTML for the selected slice from outside the timeline (the Efficiency
    // dock's FLOPs, bytes and roofline of an op call); "" adds nothing. Refreshes.
    void setExtraSection(std::function<QString(ks::widgets::SliceRef)> extra);

signals:
    void sliceActivated(ks::widgets::SliceRef ref);

private:
    void refresh();

    TimelineViewState* m_state = nullptr;
    std::shared_ptr<const TimelineData> m_data;
    QTextBrowser* m_browser = nullptr;
    std::function<QString(SliceRef)> m_extra;
};

} // namespace ks::widgets
