#pragma once

#include <QDialog>

class QSpinBox;

namespace ks::app {

// Edit → Preferences: settings that change how traces open. Reads and writes
// QSettings through job_paths.h.
class PreferencesDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PreferencesDialog(QWidget* parent = nullptr);

    QSpinBox* rankThreshold() const { return m_threshold; }

    void accept() override;

private:
    QSpinBox* m_threshold = nullptr;
};

} // namespace ks::app
