#pragma once

#include <QFrame>
#include <QList>

class QAction;
class QHBoxLayout;
class QLabel;
class QToolButton;

namespace ks::widgets {

// A non-modal message strip for the top of a view (like KDE's KMessageWidget):
// an icon, wrapped selectable text, optional action buttons and a close button.
// Tinted from the palette so it reads well in light and dark themes. Used instead
// of modal dialogs so a failed file never blocks looking at the good ones.
class MessageBar : public QFrame
{
    Q_OBJECT

public:
    enum class Type
    {
        Information,
        Positive,
        Warning,
        Error
    };
    Q_ENUM(Type)

    explicit MessageBar(QWidget* parent = nullptr);

    // Shows the bar with the text (plain text; newlines start new lines).
    void showMessage(const QString& text, Type type, const QList<QAction*>& actions = {});
    void clearMessage();

    QString text() const;

    Type type() const { return m_type; }

signals:
    void closed();

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    QColor tint() const;
    void updateIcon();

    Type m_type = Type::Information;
    QLabel* m_icon = nullptr;
    QLabel* m_text = nullptr;
    QHBoxLayout* m_actionsLayout = nullptr;
    QList<QToolButton*> m_actionButtons;
    QToolButton* m_close = nullptr;
};

} // namespace ks::widgets
