#pragma once

#include <QDialog>

class QDoubleSpinBox;
class QSpinBox;

namespace ks::app {

// Edit → Preferences: settings that change how traces open and what the app
// computes on its own. Reads and writes QSettings through job_paths.h and
// memory_budget.h.
class PreferencesDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PreferencesDialog(QWidget* parent = nullptr);

    QSpinBox* rankThreshold() const { return m_threshold; }

    // GB; 0 (shown as "Automatic") is the loaded trace plus 2 GB.
    QDoubleSpinBox* memoryBudget() const { return m_budget; }

    void accept() override;

private:
    QSpinBox* m_threshold = nullptr;
    QDoubleSpinBox* m_budget = nullptr;
};

} // namespace ks::app
