#include "app/gui/preferences_dialog.h"

#include "app/gui/job_paths.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ks::app {

PreferencesDialog::PreferencesDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Preferences"));
    m_threshold = new QSpinBox(this);
    m_threshold->setObjectName(QStringLiteral("rankThreshold"));
    m_threshold->setRange(1, 1'000'000);
    m_threshold->setValue(jobModeRankThreshold());
    m_threshold->setSuffix(tr(" ranks"));
    auto* note = new QLabel(tr("A folder with more trace files than this opens in job mode: it is summarised "
                               "in the background and every rank is drawn as a strip; load single ranks in "
                               "full from there."),
        this);
    note->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Job mode above:"), m_threshold);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

void PreferencesDialog::accept()
{
    setJobModeRankThreshold(m_threshold->value());
    QDialog::accept();
}

} // namespace ks::app
