#include "widgets/memory_snapshot/snapshot_steps_page.h"

#include "widgets/common/format.h"
#include "widgets/memory_snapshot/snapshot_tables.h"

#include <QLabel>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ks::widgets {

namespace {

    // "3.2 ms", "−850 µs": the offset has a sign.
    QString signedDuration(std::int64_t ns)
    {
        return ns < 0 ? QStringLiteral("−") + formatDuration(-ns) : formatDuration(ns);
    }

} // namespace

SnapshotStepsPage::SnapshotStepsPage(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_line = new QLabel(this);
    m_line->setObjectName(QStringLiteral("snapshotStepsLine"));
    m_line->setWordWrap(true);
    m_line->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_line->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(m_line);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("snapshotSteps"));
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    layout->addWidget(m_table, 1);
    connect(m_table, &QTableWidget::itemClicked, this, [this](QTableWidgetItem* item) {
        if (const QTableWidgetItem* name = m_table->item(item->row(), 0))
            emit rangeActivated(std::size_t(name->data(kRangeIndexRole).toULongLong()));
    });
}

void SnapshotStepsPage::showMessage(const QString& text)
{
    m_line->setText(text);
    m_table->hide();
    m_table->clear();
    m_table->setRowCount(0);
}

void SnapshotStepsPage::showSteps(const SnapshotSteps& steps, std::int64_t device)
{
    const core::SnapshotAlignment& a = steps.alignment;
    const std::vector<std::size_t> ranges = rangesOfDevice(a, device);
    QStringList lines;
    lines << tr("Aligned with rank %1's trace: %2 of the snapshot's %3 annotations matched, its clock %4 "
                "ahead of the trace's (spread %5). A row shows its range on both timelines.")
                 .arg(steps.rank)
                 .arg(a.matches.size())
                 .arg(a.snapshotAnnotations)
                 .arg(signedDuration(a.offsetUs * 1000),
                     tr("%1 µs").arg(formatCount(std::uint64_t(a.spreadUs))));
    for (const std::string& d : a.diagnostics)
        lines << toQString(d);
    if (ranges.empty()) {
        lines << tr("Device %1 has no range of the trace.").arg(device);
        showMessage(lines.join(QLatin1Char('\n')));
        return;
    }
    m_line->setText(lines.join(QLatin1Char('\n')));
    fillStepsTable(*m_table, steps, ranges);
    m_table->show();
}

void SnapshotStepsPage::selectRange(std::size_t range)
{
    const QSignalBlocker quiet(m_table);
    for (int r = 0; r < m_table->rowCount(); ++r) {
        if (m_table->item(r, 0)->data(kRangeIndexRole).toULongLong() == range) {
            m_table->selectRow(r);
            m_table->scrollToItem(m_table->item(r, 0));
            return;
        }
    }
}

QString SnapshotStepsPage::lineText() const
{
    return m_line->text();
}

} // namespace ks::widgets
