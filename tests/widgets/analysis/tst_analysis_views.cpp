// The analysis views over real core results: the table model shows the core
// table's cells, the charts draw its numbers, and the exports write files.
#include "core/io/trace_set_loader.h"
#include "core/report/table_text.h"
#include "core/session/analysis_catalog.h"
#include "tests/support/test_main.h"
#include "widgets/analysis/analysis_table_model.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/charts/analysis_export.h"
#include "widgets/charts/breakdown_charts.h"
#include "widgets/charts/distribution_charts.h"
#include "widgets/common/table_lookup.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace ks;

namespace {

// The first of `names` the table has: the tests check cells by the names a
// user reads in the table, in either mode's spelling.
std::optional<std::size_t> columnNamed(const core::Table& table, std::initializer_list<std::string> names)
{
    for (const std::string& name : names)
        if (const std::size_t c = table.columnIndex(name); c != std::string::npos)
            return c;
    return std::nullopt;
}

} // namespace

using widgets::AnalysisChart;

class TestAnalysisViews : public QObject
{
    Q_OBJECT

    std::map<std::string, std::shared_ptr<const core::AnalysisOutput>> m_outputs;
    QTemporaryDir m_dir;

    const core::Table& frame(const std::string& call, std::size_t index = 0)
    {
        return *core::framesOf(m_outputs.at(call)->result).at(index).second;
    }

    static QCPBars* barsNamed(AnalysisChart& chart, const QString& name)
    {
        for (int i = 0; i < chart.plottableCount(); ++i) {
            if (chart.plottable(i)->name() == name)
                return qobject_cast<QCPBars*>(chart.plottable(i));
        }
        return nullptr;
    }

private slots:

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QFileInfo::exists(folder))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        auto loaded = core::loadTraceSet({ folder.toStdString() }, {}, nullptr, nullptr);
        QVERIFY(loaded);
        const core::AnalysisOptions options;
        auto frames = core::buildFrames(loaded.value(), options);
        QVERIFY(frames);
        QCOMPARE(frames.value().ranks.size(), std::size_t { 2 });
        for (const core::AnalysisCall& call : core::analysisCalls(options, { 0, 1 })) {
            if (!m_outputs.count(call.htaCall))
                m_outputs[call.htaCall] =
                    std::make_shared<core::AnalysisOutput>(call.run(frames.value(), call.options));
        }
        QVERIFY(m_outputs.at("get_temporal_breakdown")->ok);
        QVERIFY(m_outputs.at("get_gpu_kernel_breakdown")->ok);
    }

    void modelShowsCoreCells_data()
    {
        QTest::addColumn<QString>("call");
        QTest::addColumn<int>("frameIndex");
        QTest::newRow("temporal") << QStringLiteral("get_temporal_breakdown") << 0;
        QTest::newRow("kernel metrics") << QStringLiteral("get_gpu_kernel_breakdown") << 1;
        QTest::newRow("idle") << QStringLiteral("get_idle_time_breakdown") << 0;
    }

    void modelShowsCoreCells()
    {
        QFETCH(QString, call);
        QFETCH(int, frameIndex);
        const auto& output = m_outputs.at(call.toStdString());
        const core::Table& table = frame(call.toStdString(), static_cast<std::size_t>(frameIndex));
        QVERIFY(!table.rows.empty());
        widgets::AnalysisTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTable(output, &table);
        QCOMPARE(model.rowCount(), static_cast<int>(table.rows.size()));
        QCOMPARE(model.columnCount(), static_cast<int>(table.columns.size()));
        // Headers: the human title shown, HTA's name kept for copy and export.
        for (int c = 0; c < model.columnCount(); ++c) {
            const core::Column& column = table.columns[static_cast<std::size_t>(c)];
            QCOMPARE(model.headerData(c, Qt::Horizontal, widgets::kRawTextRole).toString(),
                QString::fromStdString(column.name));
            QCOMPARE(model.headerData(c, Qt::Horizontal).toString(),
                widgets::columnFormat(column.name, column.unit).title);
        }
        // Cells: numbers through the policy, right-aligned; the raw value in kRawTextRole.
        for (int r = 0; r < model.rowCount(); ++r) {
            for (int c = 0; c < model.columnCount(); ++c) {
                const core::Column& column = table.columns[static_cast<std::size_t>(c)];
                const core::Cell cell = table.rows[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
                const QModelIndex index = model.index(r, c);
                QCOMPARE(index.data(widgets::kRawTextRole).toString(),
                    widgets::AnalysisTableModel::formatCell(cell));
                if (std::holds_alternative<std::string>(cell)) {
                    QCOMPARE(index.data().toString(), QString::fromStdString(std::get<std::string>(cell)));
                } else if (const auto number = core::cellAsDouble(cell)) {
                    QCOMPARE(index.data(widgets::AnalysisTableModel::SortRole).toDouble(), *number);
                    QCOMPARE(index.data().toString(),
                        widgets::formatValue(*number, widgets::columnFormat(column.name, column.unit)));
                    QCOMPARE(
                        index.data(Qt::TextAlignmentRole).toInt(), int(Qt::AlignRight | Qt::AlignVCenter));
                }
            }
        }
    }

    void tableSortsNumericallyAndFilters()
    {
        const core::Table& table = frame("get_gpu_kernel_breakdown", 1);
        widgets::AnalysisTableView view;
        view.setTable(m_outputs.at("get_gpu_kernel_breakdown"), &table);
        const auto sum = columnNamed(table, { "sum (us)", "sum" });
        QVERIFY(sum);
        view.view()->sortByColumn(static_cast<int>(*sum), Qt::DescendingOrder);
        QSortFilterProxyModel* proxy = view.proxy();
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(proxy->index(r - 1, static_cast<int>(*sum))
                        .data(widgets::AnalysisTableModel::SortRole)
                        .toDouble()
                >= proxy->index(r, static_cast<int>(*sum))
                       .data(widgets::AnalysisTableModel::SortRole)
                       .toDouble());
        int ncclRows = 0;
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            bool any = false;
            for (std::size_t c = 0; c < table.columns.size(); ++c)
                any = any
                    || widgets::AnalysisTableModel::formatCell(table.rows[r][c])
                           .contains(QStringLiteral("nccl"), Qt::CaseInsensitive);
            ncclRows += any ? 1 : 0;
        }
        QVERIFY(ncclRows > 0);
        view.filterField()->setText(QStringLiteral("NCCL"));
        QCOMPARE(proxy->rowCount(), ncclRows);
        QVERIFY(view.selectionAsText().startsWith(QStringLiteral("name\t")));
    }

    void temporalChartHasOneBarGroupPerRank()
    {
        const core::Table& table = frame("get_temporal_breakdown");
        AnalysisChart chart;
        widgets::buildTemporalChart(chart, table);
        const std::pair<QString, const char*> layers[] = { { QStringLiteral("Compute"), "compute_time_pctg" },
            { QStringLiteral("Non-compute"), "non_compute_time_pctg" },
            { QStringLiteral("Idle"), "idle_time_pctg" } };
        QCPBars* below = nullptr;
        for (const auto& [name, column] : layers) {
            QCPBars* bars = barsNamed(chart, name);
            QVERIFY2(bars, qPrintable(name));
            QCOMPARE(bars->data()->size(), 2); // one per rank
            const auto c = columnNamed(table, { column });
            QVERIFY(c);
            for (int r = 0; r < 2; ++r) {
                QCOMPARE(bars->data()->at(r)->key, double(r));
                QCOMPARE(
                    bars->data()->at(r)->value, widgets::numberAt(table, static_cast<std::size_t>(r), *c));
            }
            QCOMPARE(bars->barBelow(), below); // stacked: compute, then non-compute, then idle
            below = bars;
        }
        auto* ticker = dynamic_cast<QCPAxisTickerText*>(chart.xAxis->ticker().data());
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().value(0), QStringLiteral("rank 0"));
        QCOMPARE(ticker->ticks().value(1), QStringLiteral("rank 1"));
    }

    void kernelDurationBarsFindTheirKernel()
    {
        const core::Table& table = frame("get_gpu_kernel_breakdown", 1);
        AnalysisChart chart;
        widgets::buildKernelDurationChart(chart, table);
        QCPBars* rank0 = barsNamed(chart, QStringLiteral("rank 0"));
        QVERIFY(rank0);
        QVERIFY(!rank0->data()->isEmpty());
        QSignalSpy spy(&chart, &AnalysisChart::nameActivated);
        emit chart.plottableClick(rank0, 0, nullptr);
        QCOMPARE(spy.count(), 1);
        const QString name = spy.first().first().toString();
        // The bar's value is that kernel's mean on rank 0 in the core table.
        const auto nameColumn = columnNamed(table, { "name" });
        const auto mean = columnNamed(table, { "mean (us)" });
        const auto rank = columnNamed(table, { "rank" });
        bool found = false;
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            if (widgets::textAt(table, r, *nameColumn) == name && widgets::numberAt(table, r, *rank) == 0) {
                QCOMPARE(rank0->data()->at(0)->value, widgets::numberAt(table, r, *mean));
                found = true;
            }
        }
        QVERIFY2(found, qPrintable(name));
    }

    void everyViewDrawsItsResult_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("call");
        QTest::addColumn<int>("tables");
        using K = widgets::AnalysisChartKind;
        QTest::newRow("temporal") << int(K::Temporal) << QStringLiteral("get_temporal_breakdown") << 1;
        QTest::newRow("idle") << int(K::Idle) << QStringLiteral("get_idle_time_breakdown") << 2;
        QTest::newRow("types") << int(K::KernelTypes) << QStringLiteral("get_gpu_kernel_breakdown") << 1;
        QTest::newRow("durations") << int(K::KernelDurations) << QStringLiteral("get_gpu_kernel_breakdown")
                                   << 1;
        QTest::newRow("overlap") << int(K::Overlap) << QStringLiteral("get_comm_comp_overlap") << 1;
        QTest::newRow("memory") << int(K::MemoryBandwidth) << QStringLiteral("get_memory_bw_summary") << 1;
        QTest::newRow("queue") << int(K::QueueLength) << QStringLiteral("get_queue_length_summary") << 1;
        QTest::newRow("launches") << int(K::LaunchStats) << QStringLiteral("get_cuda_kernel_launch_stats")
                                  << 2;
    }

    void everyViewDrawsItsResult()
    {
        QFETCH(int, kind);
        QFETCH(QString, call);
        QFETCH(int, tables);
        widgets::AnalysisView view(static_cast<widgets::AnalysisChartKind>(kind));
        QVERIFY(!view.chart());
        view.setResult(m_outputs.at(call.toStdString()));
        QVERIFY(view.chart());
        QCOMPARE(view.tables().size(), tables);
        QVERIFY(view.chart()->plottableCount() > 0);
    }

    void csvExportWritesHeaderAndRows()
    {
        const core::Table& table = frame("get_temporal_breakdown");
        const QString path = m_dir.filePath(QStringLiteral("temporal.csv"));
        QVERIFY(widgets::saveTableCsv(table, path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), static_cast<int>(table.rows.size()) + 1);
        QVERIFY2(lines.first().startsWith("rank,idle_time(us),compute_time(us)"), lines.first().constData());
        QVERIFY(lines.at(1).startsWith("0,"));
    }

    void chartExportsWriteFiles()
    {
        AnalysisChart chart;
        chart.resize(500, 300);
        widgets::buildTemporalChart(chart, frame("get_temporal_breakdown"));
        const QString png = m_dir.filePath(QStringLiteral("temporal.png"));
        QVERIFY(widgets::saveChart(chart, png, widgets::chartFormatOf(png), QSize(400, 250), 2.0));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(800, 500));
        // Not blank: the bars' colours are in it.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 3);
        const QString svg = m_dir.filePath(QStringLiteral("temporal.svg"));
        QVERIFY(widgets::saveChart(chart, svg, widgets::chartFormatOf(svg), QSize(400, 250)));
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        QVERIFY(svgFile.readAll().contains("<svg"));
        const QString pdf = m_dir.filePath(QStringLiteral("temporal.pdf"));
        QVERIFY(widgets::saveChart(chart, pdf, widgets::chartFormatOf(pdf), QSize(400, 250)));
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(4) == "%PDF");
        QVERIFY(!chart.renderImage().isNull());
    }
};

KS_TEST_MAIN(tst_analysis_views, TestAnalysisViews)
#include "tst_analysis_views.moc"
