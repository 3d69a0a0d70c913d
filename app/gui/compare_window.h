#pragma once

#include "app/gui/opening/compare_side_loader.h"

#include <QMainWindow>

#include <cstdint>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace ks::widgets {
class DiffFilterProxy;
class DiffTableModel;
class TaskPools;
class MessageBar;
class TimelineSync;
class TimelineViewState;
class TimelineWidget;
} // namespace ks::widgets

namespace ks::app {

class LoadProgressBar;

// D1-D3: two traces side by side. Control above test, each timeline with its
// own tracks, on one time axis aligned on a chosen iteration; the
// compare_traces table below, sortable and filterable; the timelines coloured
// by the table's classes, and a row click shows that name on both sides.
class CompareWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit CompareWindow(QWidget* parent = nullptr);
    ~CompareWindow() override;

    // Loads both sides in the background; the diff appears when both are in.
    void compare(const QString& control, const QString& test);

    bool isBusy() const;

    // Hidden --view for screenshots: "row=NAME;status=added|removed|slower|faster;filter=TEXT".
    void applyViewCommands(const QString& commands);

    widgets::TimelineWidget* timeline(int side) const { return m_timelines[side]; }

    widgets::DiffTableModel* tableModel() const { return m_model; }

    widgets::DiffFilterProxy* tableProxy() const { return m_proxy; }

    QTableView* tableView() const { return m_table; }

    QComboBox* iterationBox() const { return m_iteration; }

    QComboBox* deviceBox() const { return m_device; }

    QCheckBox* shortNamesBox() const { return m_shortNames; }

    widgets::TimelineSync* sync() const { return m_sync; }

    // The chosen ProfilerStep number; nullopt before both sides are in.
    std::optional<std::int64_t> iteration() const;
    // Shows a name on both sides: highlighted, the first instance in the
    // chosen iteration selected, the view framing both first instances.
    void selectName(const QString& name);

signals:
    // Both sides are loaded and the diff table and colours are shown.
    void comparisonReady();

private:
    QWidget* buildPathRow();
    QWidget* buildOptionsRow();
    QWidget* buildViews();
    void setupConnections();
    void browse(int side, bool folder);
    void onSideReady();
    void populateChoices();
    void applyAlignment();
    void recompute();
    void exportCsv();

    // The threads of this window's background jobs (both sides' loads and timelines).
    std::unique_ptr<widgets::TaskPools> m_pools;
    CompareSideLoader* m_sides[2] = { nullptr, nullptr };
    QLineEdit* m_paths[2] = { nullptr, nullptr };
    LoadProgressBar* m_progress[2] = { nullptr, nullptr };
    QLabel* m_titles[2] = { nullptr, nullptr };
    widgets::TimelineViewState* m_states[2] = { nullptr, nullptr };
    widgets::TimelineWidget* m_timelines[2] = { nullptr, nullptr };
    widgets::TimelineSync* m_sync = nullptr;
    widgets::MessageBar* m_messages = nullptr;
    QComboBox* m_iteration = nullptr;
    QComboBox* m_rank = nullptr;
    QComboBox* m_device = nullptr;
    QCheckBox* m_shortNames = nullptr;
    QComboBox* m_status = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_summary = nullptr;
    widgets::DiffTableModel* m_model = nullptr;
    widgets::DiffFilterProxy* m_proxy = nullptr;
    QTableView* m_table = nullptr;
};

} // namespace ks::app
