#include "app/gui/opening/load_progress_bar.h"

#include "widgets/common/format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStringList>
#include <QVBoxLayout>

namespace ks::app {

namespace {

    constexpr int kBarRange = 1000;

    QString capitalized(QString text)
    {
        if (!text.isEmpty())
            text[0] = text[0].toUpper();
        return text;
    }

} // namespace

QString describeProgress(const LoadStatus& status)
{
    using namespace ks::widgets;
    QStringList parts;
    parts.append(status.stage.isEmpty() ? LoadProgressBar::tr("Starting") : capitalized(status.stage));
    if (status.bytesTotal > 0)
        parts.append(LoadProgressBar::tr("%1 of %2")
                         .arg(formatBytes(status.bytesDone), formatBytes(status.bytesTotal)));
    if (status.ranksTotal > 1)
        parts.append(LoadProgressBar::tr("%1 of %2 ranks").arg(status.ranksDone).arg(status.ranksTotal));
    parts.append(LoadProgressBar::tr("%1 elapsed").arg(formatClock(status.elapsedMs)));
    if (status.remainingMs >= 0)
        parts.append(LoadProgressBar::tr("about %1 left").arg(formatClock(status.remainingMs + 999)));
    return parts.join(QStringLiteral("  ·  "));
}

LoadProgressBar::LoadProgressBar(QWidget* parent)
    : QFrame(parent)
    , m_title(new QLabel(this))
    , m_details(new QLabel(this))
    , m_bar(new QProgressBar(this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    setObjectName(QStringLiteral("loadProgressBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setObjectName(QStringLiteral("loadTitle"));
    m_details->setObjectName(QStringLiteral("loadDetails"));
    m_bar->setRange(0, kBarRange);
    m_bar->setTextVisible(false);
    m_bar->setMaximumHeight(m_bar->fontMetrics().height());
    m_cancel->setObjectName(QStringLiteral("loadCancel"));
    m_cancel->setToolTip(tr("Stop loading (Esc)"));
    connect(m_cancel, &QPushButton::clicked, this, &LoadProgressBar::cancelRequested);

    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    text->addWidget(m_title);
    text->addWidget(m_details);
    text->addWidget(m_bar);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->addLayout(text, 1);
    layout->addSpacing(12);
    layout->addWidget(m_cancel, 0, Qt::AlignVCenter);
    hide();
}

void LoadProgressBar::setStatus(const LoadStatus& status)
{
    m_title->setText(tr("Loading %1").arg(widgets::displayNames(status.paths)));
    m_details->setText(describeProgress(status));
    const double fraction = status.fraction();
    if (fraction < 0) {
        m_bar->setRange(0, 0); // busy indicator until the total is known
    } else {
        m_bar->setRange(0, kBarRange);
        m_bar->setValue(static_cast<int>(fraction * kBarRange));
    }
}

QString LoadProgressBar::text() const
{
    return m_title->text() + QChar(u'\n') + m_details->text();
}

} // namespace ks::app
