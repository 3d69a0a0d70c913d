#pragma once

#include "core/analysis/tables/table.h"

#include <QWidget>

#include <cstdint>
#include <vector>

class QComboBox;
class QTabWidget;

namespace ks::widgets {

class AnalysisChart;
class AnnotationPie;
struct PieSlice;

// The chart side of the User Annotations view, two tabs: the pie of
// one rank's top annotations (their time in the breakdown's sum column: GPU or CPU time,
// as the view's chooser says; the rank chooser sits in the tabs' corner) and the bars of
// every annotation's mean duration per rank. A slice, a legend row or a bar asks, through nameActivated, to
// find that annotation's ranges on the timeline. The table must outlive the panel (the analysis view holding
// both keeps the result alive).
class UserAnnotationPanel : public QWidget
{
    Q_OBJECT

public:
    // Takes `chart` into its layout and draws the bars on it; the pie shows the first rank.
    // `timeLabel` names what the sums are ("GPU time").
    UserAnnotationPanel(
        AnalysisChart* chart, const core::Table& table, const QString& timeLabel, QWidget* parent = nullptr);

    QComboBox* rankChooser() const { return m_ranks; }

    AnnotationPie* pie() const { return m_pie; }

    // "Share of time" (the pie) and "Mean duration" (the bars).
    QTabWidget* tabs() const { return m_tabs; }

    // Shows `rank`'s pie; false when the table has no such rank.
    bool setRank(std::int64_t rank);
    std::int64_t rank() const;

    // At most this many named slices; the rest of a rank's time is one "other" slice.
    static constexpr int kMaxSlices = 8;

    // The pie of one rank of a user-annotation breakdown: its annotations by time, largest
    // first, past kMaxSlices (and HTA's own "others" row) folded into "other".
    static std::vector<PieSlice> pieSlices(const core::Table& table, std::int64_t rank);

signals:
    void nameActivated(const QString& name);

private:
    void showRank();

    const core::Table& m_table;
    QString m_timeLabel;
    QComboBox* m_ranks;
    AnnotationPie* m_pie;
    QTabWidget* m_tabs;
};

} // namespace ks::widgets
