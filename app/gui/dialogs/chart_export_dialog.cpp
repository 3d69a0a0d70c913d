#include "app/gui/dialogs/chart_export_dialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

namespace ks::app {

ChartExportDialog::ChartExportDialog(QSize initial, bool raster, QWidget* parent)
    : QDialog(parent)
    , m_width(new QSpinBox(this))
    , m_height(new QSpinBox(this))
    , m_scale(new QDoubleSpinBox(this))
{
    setWindowTitle(tr("Export Chart"));
    for (QSpinBox* box : { m_width, m_height }) {
        box->setRange(100, 10000);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(initial.width());
    m_height->setValue(initial.height());
    m_scale->setRange(0.5, 8.0);
    m_scale->setSingleStep(0.5);
    m_scale->setValue(2.0); // sharp on slides and high-DPI screens
    m_scale->setSuffix(QStringLiteral(" ×"));
    m_scale->setEnabled(raster);
    m_scale->setToolTip(tr("Pixels per logical pixel (PNG only; SVG and PDF are vector)"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* form = new QFormLayout(this);
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("&Scale:"), m_scale);
    form->addRow(buttons);
}

QSize ChartExportDialog::chartSize() const
{
    return { m_width->value(), m_height->value() };
}

double ChartExportDialog::scale() const
{
    return m_scale->value();
}

} // namespace ks::app
