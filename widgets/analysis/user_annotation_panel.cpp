#include "widgets/analysis/user_annotation_panel.h"

#include "core/analysis/hta/user_annotation_breakdown.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/charts/annotation_pie.h"
#include "widgets/charts/distribution_charts.h"
#include "widgets/common/format.h"
#include "widgets/common/table_lookup.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace ks::widgets {

namespace {

    namespace ua = core::user_annotation_breakdown;

    std::set<std::int64_t> ranksOf(const core::Table& table)
    {
        std::set<std::int64_t> ranks;
        if (const auto rank = table.find(ua::kRank))
            for (std::size_t r = 0; r < table.rows.size(); ++r)
                ranks.insert(static_cast<std::int64_t>(numberAt(table, r, *rank)));
        return ranks;
    }

} // namespace

std::vector<PieSlice> UserAnnotationPanel::pieSlices(const core::Table& table, std::int64_t rank)
{
    std::vector<PieSlice> slices;
    const auto name = table.find(ua::kName);
    const auto sum = table.find(ua::kSum);
    const auto rankColumn = table.find(ua::kRank);
    if (!name || !sum || !rankColumn)
        return slices;
    // The sum column's unit (µs in both modes) through the one number policy.
    const core::Column& sumColumn = table.columns[*sum];
    const double toNs = columnFormat(sumColumn.name, sumColumn.unit).toNanoseconds;
    double rest = 0;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        if (static_cast<std::int64_t>(numberAt(table, r, *rankColumn)) != rank)
            continue;
        const double ns = numberAt(table, r, *sum) * toNs;
        const QString annotation = textAt(table, r, *name);
        if (annotation == QStringLiteral("others")) // HTA's folded tail
            rest += ns;
        else
            slices.push_back({ annotation, ns, true });
    }
    std::stable_sort(slices.begin(), slices.end(),
        [](const PieSlice& a, const PieSlice& b) { return a.nanoseconds > b.nanoseconds; });
    if (slices.size() > static_cast<std::size_t>(kMaxSlices)) {
        for (std::size_t i = kMaxSlices; i < slices.size(); ++i)
            rest += slices[i].nanoseconds;
        slices.resize(kMaxSlices);
    }
    if (rest > 0)
        slices.push_back({ tr("other"), rest, false });
    return slices;
}

UserAnnotationPanel::UserAnnotationPanel(
    AnalysisChart* chart, const core::Table& table, const QString& timeLabel, QWidget* parent)
    : QWidget(parent)
    , m_table(table)
    , m_timeLabel(timeLabel)
    , m_ranks(new QComboBox(this))
    , m_pie(new AnnotationPie(this))
    , m_tabs(new QTabWidget(this))
{
    m_ranks->setObjectName(QStringLiteral("annotationRankChooser"));
    for (const std::int64_t rank : ranksOf(table))
        m_ranks->addItem(tr("rank %1").arg(rank), QVariant::fromValue<qlonglong>(rank));
    m_ranks->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // The rank chooser in the tabs' corner: at 1280×800 the view is a few hundred pixels
    // tall, so the pie and the bars take turns at the whole height rather than halving it.
    auto* corner = new QWidget(this);
    auto* cornerLayout = new QHBoxLayout(corner);
    cornerLayout->setContentsMargins(4, 0, 4, 0);
    auto* label = new QLabel(tr("Pie of:"), corner);
    label->setBuddy(m_ranks);
    cornerLayout->addWidget(label);
    cornerLayout->addWidget(m_ranks);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_pie, tr("Share of time"));
    // Below the tab bar the chart has less than AnalysisChart's minimum height at 1280×800:
    // held to it, its axis title would be cut off (five bars without a title row fit).
    chart->setMinimumHeight(120);
    m_tabs->addTab(chart, tr("Mean duration"));
    m_tabs->setCornerWidget(corner, Qt::TopRightCorner);
    m_pie->setToolTip(tr("Click a slice or a legend row to find that annotation on the timeline"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs, 1);
    connect(m_tabs, &QTabWidget::currentChanged, this,
        [this](int index) { m_ranks->setEnabled(index == 0); }); // the bars show every rank

    buildAnnotationDurationChart(*chart, table);
    connect(m_pie, &AnnotationPie::sliceClicked, this, &UserAnnotationPanel::nameActivated);
    connect(m_ranks, &QComboBox::currentIndexChanged, this, &UserAnnotationPanel::showRank);
    showRank();
}

bool UserAnnotationPanel::setRank(std::int64_t rank)
{
    const int index = m_ranks->findData(QVariant::fromValue<qlonglong>(rank));
    if (index < 0)
        return false;
    m_ranks->setCurrentIndex(index);
    return true;
}

std::int64_t UserAnnotationPanel::rank() const
{
    return m_ranks->currentData().toLongLong();
}

void UserAnnotationPanel::showRank()
{
    if (m_ranks->count() == 0) {
        m_pie->setSlices({}, QString());
        return;
    }
    // Nested annotations each count their own time: a step and the forward inside it are two slices.
    m_pie->setSlices(pieSlices(m_table, rank()),
        tr("Rank %1: %2 of the top user annotations").arg(rank()).arg(m_timeLabel));
}

} // namespace ks::widgets
