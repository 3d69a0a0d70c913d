#include "widgets/common/command_palette.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace ks::widgets {

namespace {

    constexpr int kIndexRole = Qt::UserRole + 1;
    constexpr int kMaxShown = 200; // a job's thousand ranks need not all be listed at once

    bool wordStart(const QString& text, qsizetype i)
    {
        return i == 0 || !text[i - 1].isLetterOrNumber() || (text[i].isUpper() && text[i - 1].isLower());
    }

} // namespace

int paletteScore(const QString& text, const QString& query)
{
    const QString wanted = query.simplified().remove(QChar(u' ')).toLower();
    if (wanted.isEmpty())
        return 0;
    const QString lower = text.toLower();
    int score = 0;
    qsizetype from = 0;
    qsizetype previous = -2;
    for (const QChar c : wanted) {
        const qsizetype at = lower.indexOf(c, from);
        if (at < 0)
            return -1;
        score += 1;
        if (at == previous + 1)
            score += 5; // a run of typed letters
        if (wordStart(text, at))
            score += 8;
        previous = at;
        from = at + 1;
    }
    // The words typed as they are written score highest: "kernel dur" before "k…d…".
    const QString phrase = query.simplified().toLower();
    if (const qsizetype at = lower.indexOf(phrase); at >= 0)
        score += 50 + (wordStart(text, at) ? 30 : 0);
    return score - static_cast<int>(text.size() / 16); // shorter first among equals
}

CommandPalette::CommandPalette(QWidget* parent)
    : QDialog(parent, Qt::Popup)
    , m_field(new QLineEdit(this))
    , m_list(new QListWidget(this))
{
    setObjectName(QStringLiteral("commandPalette"));
    m_field->setObjectName(QStringLiteral("commandPaletteField"));
    m_field->setPlaceholderText(tr("Type a command, a view, a rank or an iteration…"));
    m_field->setClearButtonEnabled(true);
    m_field->installEventFilter(this);
    m_list->setUniformItemSizes(true);
    m_list->setTextElideMode(Qt::ElideMiddle);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_field);
    layout->addWidget(m_list, 1);
    connect(m_field, &QLineEdit::textChanged, this, &CommandPalette::refilter);
    connect(m_list, &QListWidget::itemActivated, this, [this] { runSelected(); });
}

void CommandPalette::setCommands(std::vector<PaletteCommand> commands)
{
    m_commands = std::move(commands);
    m_field->clear();
    refilter();
}

QStringList CommandPalette::shownTexts() const
{
    QStringList texts;
    for (int i = 0; i < m_list->count(); ++i)
        texts.append(m_commands[static_cast<std::size_t>(m_list->item(i)->data(kIndexRole).toInt())].text);
    return texts;
}

void CommandPalette::refilter()
{
    const QString query = m_field->text();
    std::vector<std::pair<int, int>> matches; // (score, index)
    for (std::size_t i = 0; i < m_commands.size(); ++i) {
        const int score = paletteScore(m_commands[i].text, query);
        if (score >= 0)
            matches.emplace_back(score, static_cast<int>(i));
    }
    std::stable_sort(
        matches.begin(), matches.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    m_list->clear();
    for (const auto& [score, index] : matches) {
        if (m_list->count() == kMaxShown)
            break;
        const PaletteCommand& command = m_commands[static_cast<std::size_t>(index)];
        const QString shown =
            command.detail.isEmpty() ? command.text : command.text + QStringLiteral("    ") + command.detail;
        auto* item = new QListWidgetItem(shown, m_list);
        item->setData(kIndexRole, index);
        item->setToolTip(command.text);
    }
    m_list->setCurrentRow(m_list->count() > 0 ? 0 : -1);
}

void CommandPalette::runSelected()
{
    QListWidgetItem* item = m_list->currentItem();
    if (!item && m_list->count() > 0)
        item = m_list->item(0);
    if (!item)
        return;
    const std::function<void()> run =
        m_commands[static_cast<std::size_t>(item->data(kIndexRole).toInt())].run;
    accept();
    if (run)
        run();
}

bool CommandPalette::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_field && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const int row = m_list->currentRow();
        switch (key->key()) {
        case Qt::Key_Down:
            m_list->setCurrentRow(std::min(row + 1, m_list->count() - 1));
            return true;
        case Qt::Key_Up:
            m_list->setCurrentRow(std::max(row - 1, 0));
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            runSelected();
            return true;
        default:
            break;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace ks::widgets
