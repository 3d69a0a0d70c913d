#pragma once

#include "app/gui/opening/load_controller.h"

#include <QFrame>

class QLabel;
class QProgressBar;
class QPushButton;

namespace ks::app {

// A strip at the top of the window while a load runs: what is loading, the stage,
// megabytes and ranks done, elapsed and remaining time, and a Cancel button. It
// sits above the current view instead of replacing it, so whatever was open stays
// visible and usable during the load.
class LoadProgressBar : public QFrame
{
    Q_OBJECT

public:
    explicit LoadProgressBar(QWidget* parent = nullptr);

    void setStatus(const LoadStatus& status);
    QString text() const;

    QPushButton* cancelButton() const { return m_cancel; }

signals:
    void cancelRequested();

private:
    QLabel* m_title = nullptr;
    QLabel* m_details = nullptr;
    QProgressBar* m_bar = nullptr;
    QPushButton* m_cancel = nullptr;
};

// "Parsing · 12.3 MB of 45.6 MB · 1 of 2 ranks · 0:03 elapsed · about 0:08 left"
QString describeProgress(const LoadStatus& status);

} // namespace ks::app
