#include "widgets/common/not_computed_notice.h"

#include "widgets/common/format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace ks::widgets {

NotComputedNotice::NotComputedNotice(QWidget* parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_anyway(new QPushButton(tr("Compute anyway"), this))
    , m_perIteration(new QPushButton(tr("Per iteration"), this))
{
    m_label->setObjectName(QStringLiteral("notComputedText"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_anyway->setObjectName(QStringLiteral("computeAnyway"));
    m_anyway->setToolTip(tr("Start it now, over the memory budget (File → Preferences sets the budget)"));
    m_perIteration->setObjectName(QStringLiteral("perIteration"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_anyway);
    layout->addWidget(m_perIteration);
    connect(m_anyway, &QPushButton::clicked, this, &NotComputedNotice::computeAnywayRequested);
    connect(m_perIteration, &QPushButton::clicked, this, &NotComputedNotice::perIterationRequested);
    showText(QString());
}

void NotComputedNotice::setPrefix(const QString& prefix)
{
    m_prefix = prefix;
}

void NotComputedNotice::showText(const QString& text)
{
    m_label->setText(m_prefix + text);
    m_anyway->hide();
    m_perIteration->hide();
}

QString NotComputedNotice::notComputedText(std::uint64_t needBytes, std::uint64_t budgetBytes)
{
    return tr("Not computed: needs about %1 (budget %2)")
        .arg(formatBytes(needBytes), formatBytes(budgetBytes));
}

void NotComputedNotice::showNotComputed(std::uint64_t needBytes, std::uint64_t budgetBytes,
    std::optional<std::uint64_t> iterationBytes, std::optional<std::int64_t> iteration)
{
    m_label->setText(m_prefix + notComputedText(needBytes, budgetBytes));
    m_anyway->show();
    m_perIteration->setVisible(iterationBytes.has_value() && iteration.has_value());
    if (iterationBytes && iteration)
        m_perIteration->setToolTip(tr("Compute it for iteration %1 only (ProfilerStep#%1): needs about %2")
                                       .arg(*iteration)
                                       .arg(formatBytes(*iterationBytes)));
}

QString NotComputedNotice::text() const
{
    return m_label->text();
}

} // namespace ks::widgets
