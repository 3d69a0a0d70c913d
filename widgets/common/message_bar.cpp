#include "widgets/common/message_bar.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QStyle>
#include <QToolButton>

namespace ks::widgets {

MessageBar::MessageBar(QWidget* parent)
    : QFrame(parent)
    , m_icon(new QLabel(this))
    , m_text(new QLabel(this))
    , m_actionsLayout(new QHBoxLayout)
    , m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBar"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_text->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_text->setObjectName(QStringLiteral("messageText"));
    m_icon->setAlignment(Qt::AlignTop);

    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Close this message"));
    m_close->setObjectName(QStringLiteral("messageClose"));
    connect(m_close, &QToolButton::clicked, this, [this] {
        clearMessage();
        emit closed();
    });

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(8);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addLayout(m_actionsLayout);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void MessageBar::showMessage(const QString& text, Type type, const QList<QAction*>& actions)
{
    m_type = type;
    m_text->setText(text);
    qDeleteAll(m_actionButtons);
    m_actionButtons.clear();
    for (QAction* action : actions) {
        auto* button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        m_actionsLayout->addWidget(button, 0, Qt::AlignTop);
        m_actionButtons.append(button);
    }
    updateIcon();
    show();
    update();
}

void MessageBar::clearMessage()
{
    hide();
    m_text->clear();
    qDeleteAll(m_actionButtons);
    m_actionButtons.clear();
}

QString MessageBar::text() const
{
    return m_text->text();
}

QColor MessageBar::tint() const
{
    // The same hues KMessageWidget uses, so the bar looks at home on Linux desktops.
    switch (m_type) {
    case Type::Information:
        return QColor(61, 174, 233);
    case Type::Positive:
        return QColor(39, 174, 96);
    case Type::Warning:
        return QColor(246, 116, 0);
    case Type::Error:
        return QColor(218, 68, 83);
    }
    return palette().highlight().color();
}

void MessageBar::updateIcon()
{
    QStyle::StandardPixmap pixmap = QStyle::SP_MessageBoxInformation;
    if (m_type == Type::Warning)
        pixmap = QStyle::SP_MessageBoxWarning;
    else if (m_type == Type::Error)
        pixmap = QStyle::SP_MessageBoxCritical;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(
        style()->standardIcon(pixmap, nullptr, this).pixmap(QSize(size, size), devicePixelRatioF()));
}

void MessageBar::paintEvent(QPaintEvent* event)
{
    Q_UNUSED(event)
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing); // rounded corners only; the bar is small
    QColor fill = tint();
    fill.setAlphaF(0.18);
    QColor border = tint();
    border.setAlphaF(0.8);
    const QRectF box = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    painter.setPen(QPen(border, 1));
    painter.setBrush(palette().window());
    painter.drawRoundedRect(box, 4, 4);
    painter.setBrush(fill);
    painter.drawRoundedRect(box, 4, 4);
}

void MessageBar::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        updateIcon();
}

} // namespace ks::widgets
