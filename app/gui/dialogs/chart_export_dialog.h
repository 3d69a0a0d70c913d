#pragma once

#include <QDialog>
#include <QSize>

class QSpinBox;
class QDoubleSpinBox;

namespace ks::app {

// Asks the size (logical pixels) and, for PNG, the pixel scale of a chart
// export. Starts at the chart's size on screen.
class ChartExportDialog : public QDialog
{
    Q_OBJECT

public:
    ChartExportDialog(QSize initial, bool raster, QWidget* parent = nullptr);

    QSize chartSize() const;
    double scale() const;

private:
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QDoubleSpinBox* m_scale = nullptr;
};

} // namespace ks::app
