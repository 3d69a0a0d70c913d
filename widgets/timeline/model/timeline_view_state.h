#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>

#include <optional>

namespace ks::widgets {

// The state every view of one window shares (style guide §1): the visible time
// range and its history, the selected slice and time range, the cursor time,
// and how tracks are shown (hidden, pinned, ordered, collapsed ranks), the
// alignment and colour mode. Views read it and ask it to change; it emits
// signals and never draws.
class TimelineViewState : public QObject
{
    Q_OBJECT

public:
    // How a range change enters the back/forward history.
    enum class History
    {
        Record, // a jump (fit, zoom to selection, search step): always recorded
        Continuous, // wheel, drag, keys: one record per gesture (changes > 1 s apart)
        None,
    };

    explicit TimelineViewState(QObject* parent = nullptr);

    // Data bounds in display time; resets the view to fit all and clears the history.
    void reset(TimeRange bounds);
    void setBounds(TimeRange bounds); // keeps the view (alignment change)

    TimeRange bounds() const { return m_bounds; }

    TimeRange visibleRange() const { return m_visible; }

    void setVisibleRange(TimeRange range, History history = History::Continuous);
    void fitAll();

    bool canGoBack() const { return !m_back.isEmpty(); }

    bool canGoForward() const { return !m_forward.isEmpty(); }

    void goBack();
    void goForward();

    SliceRef selectedSlice() const { return m_selected; }

    void setSelectedSlice(SliceRef ref);

    std::optional<TimeRange> selectedRange() const { return m_selectedRange; }

    void setSelectedRange(std::optional<TimeRange> range);

    std::optional<TimeNs> cursorTime() const { return m_cursor; }

    void setCursorTime(std::optional<TimeNs> t);

    // Track layout.
    bool isHidden(TrackKey key) const { return m_hidden.contains(key.packed()); }

    void setHidden(TrackKey key, bool hidden);
    void showAllTracks(int rank); // unhides every track of a rank (-1: of every rank)
    int hiddenCount(int rank) const;

    bool isPinned(TrackKey key) const { return m_pinned.contains(key.packed()); }

    void setPinned(TrackKey key, bool pinned);

    const QList<quint64>& pinned() const { return m_pinned; }

    bool isCollapsed(int rank) const { return m_collapsed.contains(rank); }

    void setCollapsed(int rank, bool collapsed);
    void setAllCollapsed(int rankCount, bool collapsed);

    // The user's order of a rank's tracks (packed keys); empty = default order.
    QList<quint64> trackOrder(int rank) const { return m_order.value(rank); }

    void setTrackOrder(int rank, const QList<quint64>& order);

    bool isRankHidden(int rank) const { return m_hiddenRanks.contains(rank); }

    void setRankHidden(int rank, bool hidden);

    const Alignment& alignment() const { return m_alignment; }

    void setAlignment(const Alignment& alignment);

    ColorMode colorMode() const { return m_colorMode; }

    void setColorMode(ColorMode mode);

    bool showAllFlows() const { return m_allFlows; }

    void setShowAllFlows(bool on);

signals:
    void visibleRangeChanged(ks::widgets::TimeRange range);
    void historyChanged();
    void selectedSliceChanged(ks::widgets::SliceRef ref);
    void selectedRangeChanged();
    void cursorTimeChanged();
    void layoutChanged(); // hidden, pinned, order, collapsed
    void appearanceChanged(); // colour mode, flows
    void alignmentChanged();

private:
    TimeRange m_bounds { 0, 1 };
    TimeRange m_visible { 0, 1 };
    QList<TimeRange> m_back;
    QList<TimeRange> m_forward;
    QElapsedTimer m_lastContinuous;
    SliceRef m_selected;
    std::optional<TimeRange> m_selectedRange;
    std::optional<TimeNs> m_cursor;
    QSet<quint64> m_hidden;
    QList<quint64> m_pinned;
    QSet<int> m_collapsed;
    QSet<int> m_hiddenRanks;
    QHash<int, QList<quint64>> m_order;
    Alignment m_alignment = Alignment::AsRecorded;
    ColorMode m_colorMode = ColorMode::KernelType;
    bool m_allFlows = false;
};

} // namespace ks::widgets
