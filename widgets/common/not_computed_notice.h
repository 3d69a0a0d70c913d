#pragma once

#include <QWidget>

#include <cstdint>
#include <optional>

class QLabel;
class QPushButton;

namespace ks::widgets {

// Where a result is missing, the line that says why: a
// status ("computing…", an error), or work the app did not start because it
// needs more memory than the budget allows: "Not computed: needs about 3.4 GB
// (budget 2.5 GB)" with [Compute anyway] and, where offered, [Per iteration].
// The buttons only ask (signals); the app decides what runs.
class NotComputedNotice : public QWidget
{
    Q_OBJECT

public:
    explicit NotComputedNotice(QWidget* parent = nullptr);

    // Put before every text: "Stragglers (job critical path): ".
    void setPrefix(const QString& prefix);
    // A status line without buttons.
    void showText(const QString& text);
    // Not computed for memory. `iterationBytes`: what "Per iteration" (the
    // first iteration, number `iteration`) would need; unset: not offered.
    void showNotComputed(std::uint64_t needBytes, std::uint64_t budgetBytes,
        std::optional<std::uint64_t> iterationBytes = std::nullopt,
        std::optional<std::int64_t> iteration = std::nullopt);

    // "Not computed: needs about 3.4 GB (budget 2.5 GB)".
    static QString notComputedText(std::uint64_t needBytes, std::uint64_t budgetBytes);

    QString text() const;

    QLabel* label() const { return m_label; }

    QPushButton* computeAnywayButton() const { return m_anyway; }

    QPushButton* perIterationButton() const { return m_perIteration; }

signals:
    void computeAnywayRequested();
    void perIterationRequested();

private:
    QString m_prefix;
    QLabel* m_label = nullptr;
    QPushButton* m_anyway = nullptr;
    QPushButton* m_perIteration = nullptr;
};

} // namespace ks::widgets
