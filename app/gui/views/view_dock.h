#pragma once

#include <QDockWidget>

namespace ks::app {

// The dock a navigator view lives in while torn off. Closing
// it sends the view back to the navigator, so no view is ever lost.
class ViewDock : public QDockWidget
{
    Q_OBJECT

public:
    using QDockWidget::QDockWidget;

signals:
    void closed();

protected:
    void closeEvent(QCloseEvent* event) override
    {
        QDockWidget::closeEvent(event);
        emit closed();
    }
};

} // namespace ks::app
