#include "app/gui/dialogs/preferences_dialog.h"

#include "app/gui/background/memory_budget.h"
#include "app/gui/opening/job_paths.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
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
    m_budget = new QDoubleSpinBox(this);
    m_budget->setObjectName(QStringLiteral("memoryBudget"));
    m_budget->setRange(0, 100'000);
    m_budget->setDecimals(1);
    m_budget->setSingleStep(0.5);
    m_budget->setSuffix(tr(" GB"));
    m_budget->setSpecialValueText(
        tr("Automatic (the loaded trace + %1 GB)").arg(kAutomaticBudgetHeadroom / 1e9));
    m_budget->setValue(memoryBudgetSettingGb());
    auto* budgetNote =
        new QLabel(tr("What the analyses, the job's critical path and its stragglers may use "
                      "in all, the loaded trace included. Work that needs more is not started "
                      "after a load: its dock says what it needs and offers to compute it anyway "
                      "or for one iteration. A new budget applies from the next load or Analyses → "
                      "Recompute."),
            this);
    budgetNote->setWordWrap(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Job mode above:"), m_threshold);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    auto* budgetForm = new QFormLayout;
    budgetForm->addRow(tr("Memory budget:"), m_budget);
    layout->addLayout(budgetForm);
    layout->addWidget(budgetNote);
    layout->addWidget(buttons);
}

void PreferencesDialog::accept()
{
    setJobModeRankThreshold(m_threshold->value());
    setMemoryBudgetSettingGb(m_budget->value());
    QDialog::accept();
}

} // namespace ks::app
