#pragma once

#include <QDialog>
#include <QString>

#include <functional>
#include <vector>

class QLineEdit;
class QListWidget;

namespace ks::widgets {

// One thing the palette can do: a menu action, a view, a rank, an iteration.
struct PaletteCommand
{
    QString text; // what is matched and shown: "Analyses › Idle Time"
    QString detail; // shown dimmed on the right: a shortcut, "view", "rank"
    std::function<void()> run;
};

// How well `query` matches `text`: -1 when its letters do not appear in order
// (case-insensitive); higher for a prefix, a contiguous run, letters at word
// starts. "idle" finds "Idle Time", "kl" finds "Kernel Launches".
int paletteScore(const QString& text, const QString& query);

// The command palette (Ctrl+K / Ctrl+Shift+P): a field and the
// commands matching it, best first; Enter runs the selected one and closes.
// The app fills it each time it opens (setCommands); it knows no menus itself.
class CommandPalette : public QDialog
{
    Q_OBJECT

public:
    explicit CommandPalette(QWidget* parent = nullptr);

    void setCommands(std::vector<PaletteCommand> commands);

    QLineEdit* field() const { return m_field; }

    QListWidget* list() const { return m_list; }

    // The texts shown, in order (for tests).
    QStringList shownTexts() const;

    // Runs the selected command (the first when none is) and closes.
    void runSelected();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void refilter();

    QLineEdit* m_field = nullptr;
    QListWidget* m_list = nullptr;
    std::vector<PaletteCommand> m_commands;
};

} // namespace ks::widgets
