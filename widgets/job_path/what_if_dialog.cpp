#include "widgets/job_path/what_if_dialog.h"

#include "core/analysis/cross_rank/what_if.h"
#include "widgets/job_path/path_segments_table.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <array>

namespace ks::widgets {

namespace {

    enum RuleColumn
    {
        kMatchColumn,
        kPatternColumn,
        kFactorColumn
    };

    QString boundName(core::PathBound bound)
    {
        const std::string_view name = core::pathBoundName(bound);
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }

    std::array<core::TimeNs, core::kPathBoundCount> totalByBound(const core::CrossRankPath& path)
    {
        std::array<core::TimeNs, core::kPathBoundCount> sums {};
        for (const core::PathSegment& s : path.segments)
            sums[static_cast<std::size_t>(s.piece.bound)] += s.piece.duration;
        return sums;
    }

    QString changeText(core::TimeNs before, core::TimeNs after)
    {
        if (before == 0)
            return after == 0 ? QStringLiteral("0.0%") : QStringLiteral("-");
        return QStringLiteral("%1%").arg(
            100.0 * static_cast<double>(after - before) / static_cast<double>(before), 0, 'f', 1);
    }

} // namespace

WhatIfDialog::WhatIfDialog(QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("whatIfDialog"));
    setWindowTitle(tr("What-if on the Critical Path"));
    auto* intro =
        new QLabel(tr("Scale ops or kernels on the job's critical path: each rule matches a name "
                      "(regular expression, searched) or a bound kind; a factor of 0.5 halves their "
                      "time. A name rule wins over kind rules; the first match decides."),
            this);
    intro->setWordWrap(true);
    m_rules = new QTableWidget(0, 3, this);
    m_rules->setObjectName(QStringLiteral("whatIfRules"));
    m_rules->setHorizontalHeaderLabels({ tr("Match"), tr("Name regex or kind"), tr("Factor") });
    m_rules->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rules->horizontalHeader()->setStretchLastSection(false);
    m_rules->horizontalHeader()->setSectionResizeMode(kPatternColumn, QHeaderView::Stretch);
    m_rules->setMinimumHeight(110);
    m_rules->setColumnWidth(kMatchColumn, 140); // "Name (regex)" in full
    auto* add = new QPushButton(tr("Add rule"), this);
    auto* remove = new QPushButton(tr("Remove rule"), this);
    m_apply = new QPushButton(tr("Apply"), this);
    m_apply->setDefault(true);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("whatIfStatus"));
    m_status->setWordWrap(true);
    m_comparison =
        makeReadOnlyTable({ tr("Quantity"), tr("Before (ms)"), tr("After (ms)"), tr("Change") }, this);
    m_comparison->setObjectName(QStringLiteral("whatIfComparison"));
    m_segments = makePathSegmentsView(this);
    m_segments->setObjectName(QStringLiteral("whatIfSegments"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    auto* results = new QSplitter(Qt::Horizontal, this);
    results->addWidget(m_comparison);
    results->addWidget(m_segments);
    results->setStretchFactor(0, 2);
    results->setStretchFactor(1, 3);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_rules);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(results, 1);
    layout->addWidget(close);
    resize(980, 620);

    connect(add, &QPushButton::clicked, this, [this] { addRule(Match::Name, QString(), 0.5); });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_rules->currentRow();
        m_rules->removeRow(row >= 0 ? row : m_rules->rowCount() - 1);
    });
    connect(m_apply, &QPushButton::clicked, this, &WhatIfDialog::apply);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_segments, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (const core::PathSegment* s = pathSegmentAt(m_segments, index.row()))
            emit segmentActivated(s->rank, s->piece.eventIndex);
    });
}

void WhatIfDialog::setBaseline(std::shared_ptr<const core::JobCriticalPath> job)
{
    m_before = std::move(job);
    m_after.reset();
    m_status->setText(m_before && m_before->path.ok
            ? tr("Add rules and press Apply.")
            : tr("No cross-rank path: open a job and let the analyses run."));
    fillComparison();
    showPathSegments(m_segments, m_before);
}

void WhatIfDialog::addRule(Match match, const QString& pattern, double factor)
{
    const int row = m_rules->rowCount();
    m_rules->insertRow(row);
    auto* matchBox = new QComboBox(m_rules);
    matchBox->addItem(tr("Name (regex)"), int(Match::Name));
    matchBox->addItem(tr("Kind"), int(Match::Kind));
    matchBox->setCurrentIndex(matchBox->findData(int(match)));
    m_rules->setCellWidget(row, kMatchColumn, matchBox);
    auto* factorBox = new QDoubleSpinBox(m_rules);
    factorBox->setRange(0, 1000);
    factorBox->setDecimals(3);
    factorBox->setSingleStep(0.1);
    factorBox->setValue(factor);
    m_rules->setCellWidget(row, kFactorColumn, factorBox);
    setMatchCell(row, match, pattern);
    connect(matchBox, &QComboBox::currentIndexChanged, this, [this, matchBox] {
        // The row may have moved (rows above removed): find it by its widget.
        for (int r = 0; r < m_rules->rowCount(); ++r) {
            if (m_rules->cellWidget(r, kMatchColumn) == matchBox)
                setMatchCell(r, Match(matchBox->currentData().toInt()), QString());
        }
    });
}

void WhatIfDialog::setRules(const QStringList& texts)
{
    m_rules->setRowCount(0);
    const QLatin1String kindPrefix("kind:");
    for (const QString& text : texts) {
        const qsizetype eq = text.lastIndexOf(QLatin1Char('='));
        const QString lhs = text.left(eq);
        const double factor = eq < 0 ? 1.0 : text.mid(eq + 1).toDouble();
        if (lhs.startsWith(kindPrefix))
            addRule(Match::Kind, lhs.mid(kindPrefix.size()), factor);
        else
            addRule(Match::Name, lhs, factor);
    }
}

void WhatIfDialog::setMatchCell(int row, Match match, const QString& pattern)
{
    if (match == Match::Kind) {
        auto* kinds = new QComboBox(m_rules);
        for (std::size_t b = 0; b < core::kPathBoundCount; ++b)
            kinds->addItem(boundName(static_cast<core::PathBound>(b)));
        if (!pattern.isEmpty())
            kinds->setCurrentText(pattern);
        m_rules->setCellWidget(row, kPatternColumn, kinds);
        return;
    }
    auto* edit = new QLineEdit(pattern, m_rules);
    edit->setPlaceholderText(tr("e.g. mkldnn_convolution|gemm"));
    m_rules->setCellWidget(row, kPatternColumn, edit);
}

std::optional<QStringList> WhatIfDialog::rules()
{
    QStringList out;
    for (int row = 0; row < m_rules->rowCount(); ++row) {
        const auto* matchBox = qobject_cast<QComboBox*>(m_rules->cellWidget(row, kMatchColumn));
        const auto* factorBox = qobject_cast<QDoubleSpinBox*>(m_rules->cellWidget(row, kFactorColumn));
        const QString factor = QString::number(factorBox->value(), 'g', 6);
        QString text;
        if (Match(matchBox->currentData().toInt()) == Match::Kind) {
            text = QStringLiteral("kind:")
                + qobject_cast<QComboBox*>(m_rules->cellWidget(row, kPatternColumn))->currentText()
                + QLatin1Char('=') + factor;
        } else {
            const QString pattern =
                qobject_cast<QLineEdit*>(m_rules->cellWidget(row, kPatternColumn))->text();
            if (pattern.trimmed().isEmpty()) {
                showError(tr("rule %1: enter a name or a regular expression").arg(row + 1));
                return std::nullopt;
            }
            text = pattern + QLatin1Char('=') + factor;
        }
        // The core's parser decides, so the dialog and the dock field accept the same rules.
        const auto parsed = core::parseWhatIfRule(text.toStdString());
        if (!parsed) {
            showError(tr("rule %1: %2").arg(row + 1).arg(QString::fromStdString(parsed.error().message)));
            return std::nullopt;
        }
        out.append(text);
    }
    if (out.isEmpty()) {
        showError(tr("add at least one rule"));
        return std::nullopt;
    }
    return out;
}

void WhatIfDialog::apply()
{
    if (auto texts = rules())
        emit applyRequested(*texts);
}

void WhatIfDialog::showBusy()
{
    m_status->setText(tr("Recomputing the path…"));
}

void WhatIfDialog::showResult(std::shared_ptr<const core::JobCriticalPath> after)
{
    if (!after || !after->path.ok) {
        showError(tr("no path after scaling"));
        return;
    }
    m_after = std::move(after);
    m_status->setText(tr("The segments list the new path."));
    fillComparison();
    showPathSegments(m_segments, m_after);
    emit resultShown();
}

void WhatIfDialog::showError(const QString& text)
{
    m_status->setText(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(text.toHtmlEscaped()));
}

void WhatIfDialog::fillComparison()
{
    m_comparison->setRowCount(0);
    if (!m_before || !m_before->path.ok)
        return;

    struct Row
    {
        QString name;
        core::TimeNs before;
        std::optional<core::TimeNs> after;
    };

    std::vector<Row> rows;
    const bool done = m_after != nullptr;
    rows.push_back({ tr("Path length"), m_before->path.length,
        done ? std::optional(m_after->path.length) : std::nullopt });
    rows.push_back({ tr("Iteration time (estimated)"), m_before->measuredTime,
        done ? std::optional(core::whatIfMeasuredTime(*m_before, *m_after)) : std::nullopt });
    const auto before = totalByBound(m_before->path);
    const auto after = done ? totalByBound(m_after->path) : before;
    for (std::size_t b = 0; b < core::kPathBoundCount; ++b)
        rows.push_back({ boundName(static_cast<core::PathBound>(b)), before[b],
            done ? std::optional(after[b]) : std::nullopt });
    m_comparison->setRowCount(static_cast<int>(rows.size()));
    int r = 0;
    for (const Row& row : rows)
        setTableRow(m_comparison, r++,
            { row.name, pathMs(row.before), row.after ? pathMs(*row.after) : QString(),
                row.after ? changeText(row.before, *row.after) : QString() });
    m_comparison->resizeColumnsToContents();
}

} // namespace ks::widgets
