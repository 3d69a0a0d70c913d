#include "widgets/memory_snapshot/snapshot_steps_page.h"

#include "widgets/common/format.h"
#include "widgets/memory_snapshot/snapshot_tables.h"

#include <QComboBox>
#include <QHBoxLayout>
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

    QString micros(std::int64_t us)
    {
        return QObject::tr("%1 µs").arg(formatCount(std::uint64_t(us)));
    }

    // The next best fit after choice.best, by the same order (-1: no other rank aligns).
    int runnerUp(const core::RankChoice& choice)
    {
        int second = -1;
        for (std::size_t i = 0; i < choice.fits.size(); ++i) {
            const core::RankFit& f = choice.fits[i];
            if (i == choice.best || !f.aligned)
                continue;
            const core::RankFit* s = second < 0 ? nullptr : &choice.fits[std::size_t(second)];
            if (!s || f.matched > s->matched || (f.matched == s->matched && f.spreadUs < s->spreadUs))
                second = int(i);
        }
        return second;
    }

    // Which rank it is aligned with and why: the chooser's choice, the one rank
    // that fits, or the best of several that fit alike.
    QString alignedWith(const SnapshotSteps& steps)
    {
        const QString aligned = SnapshotStepsPage::tr("Aligned with rank %1's trace").arg(steps.rank);
        if (steps.ranks.size() <= 1)
            return aligned;
        if (steps.chosen)
            return SnapshotStepsPage::tr("%1, as chosen above").arg(aligned);
        const core::RankChoice& c = steps.choice;
        const int second = runnerUp(c);
        if (second < 0)
            return SnapshotStepsPage::tr("%1, the only one of the trace's %2 ranks it matches")
                .arg(aligned)
                .arg(steps.ranks.size());
        const core::RankFit& a = c.fits[c.best];
        const core::RankFit& b = c.fits[std::size_t(second)];
        if (c.told)
            return SnapshotStepsPage::tr("%1, the one of its %2 ranks whose steps fit the snapshot's (next "
                                         "best: rank %3, %4)")
                .arg(aligned)
                .arg(steps.ranks.size())
                .arg(steps.ranks[std::size_t(second)])
                .arg(b.matched < a.matched
                        ? SnapshotStepsPage::tr("%1 fewer matched").arg(a.matched - b.matched)
                        : SnapshotStepsPage::tr("spread %1").arg(micros(b.spreadUs)));
        return SnapshotStepsPage::tr(
            "%1, the best fit, but rank %2 fits the snapshot about as well (spread %3 "
            "and %4): if the snapshot is another rank's, choose it above")
            .arg(aligned)
            .arg(steps.ranks[std::size_t(second)])
            .arg(micros(a.spreadUs), micros(b.spreadUs));
    }

} // namespace

SnapshotStepsPage::SnapshotStepsPage(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_rankRow = new QWidget(this);
    auto* rankLayout = new QHBoxLayout(m_rankRow);
    rankLayout->setContentsMargins(0, 0, 0, 0);
    rankLayout->addWidget(new QLabel(tr("Rank:"), m_rankRow));
    m_rank = new QComboBox(m_rankRow);
    m_rank->setObjectName(QStringLiteral("snapshotStepsRank"));
    m_rank->setToolTip(
        tr("The rank of the trace the snapshot is aligned with. The best fit is the rank whose "
           "ProfilerSteps and annotations all lie one offset away from the snapshot's."));
    m_rank->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    rankLayout->addWidget(m_rank, 1);
    m_rankRow->hide();
    layout->addWidget(m_rankRow);
    connect(m_rank, &QComboBox::activated, this, [this](int item) { emit rankChosen(item - 1); });
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
    lines << tr("%1: %2 of the snapshot's %3 annotations matched, its clock %4 ahead of the trace's (spread "
                "%5). A row shows its range on both timelines.")
                 .arg(alignedWith(steps))
                 .arg(a.matches.size())
                 .arg(a.snapshotAnnotations)
                 .arg(signedDuration(a.offsetUs * 1000), micros(a.spreadUs));
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
    fitStepsColumns(*m_table);
}

void SnapshotStepsPage::showRanks(const SnapshotSteps* steps)
{
    const bool several = steps && steps->ranks.size() > 1;
    m_rankRow->setVisible(several);
    if (!several)
        return;
    const QSignalBlocker quiet(m_rank);
    m_rank->clear();
    const core::RankChoice& c = steps->choice;
    m_rank->addItem(tr("Best fit: rank %1").arg(steps->ranks[c.best]));
    for (std::size_t i = 0; i < steps->ranks.size(); ++i) {
        const core::RankFit& f = c.fits[i];
        m_rank->addItem(f.aligned ? tr("Rank %1 (%2 matched, spread %3)")
                                        .arg(steps->ranks[i])
                                        .arg(f.matched)
                                        .arg(micros(f.spreadUs))
                                  : tr("Rank %1 (nothing matched)").arg(steps->ranks[i]));
    }
    m_rank->setCurrentIndex(steps->chosen ? int(steps->rankIndex) + 1 : 0);
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

void SnapshotStepsPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (m_table->isVisibleTo(this))
        fitStepsColumns(*m_table);
}

QString SnapshotStepsPage::lineText() const
{
    return m_line->text();
}

} // namespace ks::widgets
