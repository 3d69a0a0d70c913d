#include "app/gui/views/welcome_page.h"

#include "widgets/common/format.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace ks::app {

namespace {

    QPushButton* buttonFor(QAction* action, QWidget* parent)
    {
        auto* button = new QPushButton(
            action->icon(), action->text().remove(QChar(u'&')).remove(QStringLiteral("…")), parent);
        button->setToolTip(action->shortcut().toString(QKeySequence::NativeText));
        button->setMinimumWidth(150);
        QObject::connect(button, &QPushButton::clicked, action, &QAction::trigger);
        return button;
    }

} // namespace

WelcomePage::WelcomePage(QAction* openFile, QAction* openFolder, QWidget* parent)
    : QWidget(parent)
    , m_recentTitle(new QLabel(tr("Recent"), this))
    , m_recent(new QLabel(this))
{
    setObjectName(QStringLiteral("welcomePage"));
    auto* icon = new QLabel(this);
    icon->setPixmap(QGuiApplication::windowIcon().pixmap(QSize(96, 96), devicePixelRatioF()));
    icon->setAlignment(Qt::AlignCenter);

    auto* title = new QLabel(tr("Open a PyTorch profiler trace"), this);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    title->setFont(titleFont);
    title->setAlignment(Qt::AlignCenter);

    auto* hint =
        new QLabel(tr("A Kineto trace file (.json or .json.gz), or a folder with one file per rank.\n"
                      "You can also drop files and folders onto this window."),
            this);
    hint->setAlignment(Qt::AlignCenter);
    hint->setForegroundRole(QPalette::PlaceholderText); // secondary text, readable in light and dark themes

    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(buttonFor(openFile, this));
    buttons->addWidget(buttonFor(openFolder, this));
    buttons->addStretch();

    QFont bold = m_recentTitle->font();
    bold.setBold(true);
    m_recentTitle->setFont(bold);
    m_recentTitle->setAlignment(Qt::AlignCenter);
    m_recent->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_recent->setTextFormat(Qt::RichText);
    m_recent->setObjectName(QStringLiteral("recentList"));
    connect(m_recent, &QLabel::linkActivated, this, [this](const QString& link) {
        const int index = link.toInt();
        if (index >= 0 && index < m_entries.size())
            emit recentActivated(m_entries[index]);
    });

    auto* layout = new QVBoxLayout(this);
    layout->addStretch(2);
    layout->addWidget(icon);
    layout->addSpacing(8);
    layout->addWidget(title);
    layout->addWidget(hint);
    layout->addSpacing(16);
    layout->addLayout(buttons);
    layout->addSpacing(28);
    layout->addWidget(m_recentTitle);
    layout->addWidget(m_recent);
    layout->addStretch(3);
    setRecent({});
}

void WelcomePage::setRecent(const QList<QStringList>& entries)
{
    m_entries = entries;
    QString html;
    for (int i = 0; i < entries.size(); ++i) {
        const QStringList& paths = entries[i];
        const QString folder = QDir::toNativeSeparators(QFileInfo(paths.front()).absolutePath());
        html += QStringLiteral("<p style=\"margin:3px\"><a href=\"%1\">%2</a>&nbsp;&nbsp;<span "
                               "style=\"color:gray\">%3</span></p>")
                    .arg(i)
                    .arg(widgets::displayNames(paths).toHtmlEscaped(), folder.toHtmlEscaped());
    }
    m_recent->setText(html);
    m_recentTitle->setVisible(!entries.isEmpty());
    m_recent->setVisible(!entries.isEmpty());
}

} // namespace ks::app
