// The Efficiency dock's view on the real H100 and MI300X traces: the summary
// names the device and MFU, the roofline chart has its roofs, slope and one disc per
// modelled row, the table has roofline's rows, a click asks for the row's calls
// (longest first) and a range restricts it; without shapes it says so.

#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/common/task_tracker.h"
#include "widgets/efficiency/efficiency_view.h"

#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace ks;

class TestEfficiencyView : public QObject
{
    Q_OBJECT

private slots:

    void showsTheRooflineOfBothVendors()
    {
        const struct
        {
            const char* folder;
            const char* device;
        } cases[] = { { "h100_qwen05b", "H100 SXM5" }, { "mi300_qwen05b", "MI300X" } };

        for (const auto& c : cases) {
            widgets::TaskPools pools;
            widgets::EfficiencyView view(&pools);
            QSignalSpy computed(&view, &widgets::EfficiencyView::computed);
            const auto set = test::loadSharedTraces(c.folder);
            view.compute(set, std::optional<core::AnalysisWindow> {});
            QVERIFY(computed.wait(60000));
            QVERIFY2(
                view.summaryText().contains(QString::fromLatin1(c.device)), qPrintable(view.summaryText()));
            QVERIFY(view.summaryText().contains(QStringLiteral("MFU")));
            const core::EfficiencyReport* report = view.report();
            QVERIFY(report && !report->rows.empty());
            QCOMPARE(view.table()->proxy()->rowCount(), int(report->rows.size()));
            // Roof lines + the slope + a disc per row + a legend entry per family.
            QVERIFY(view.chart()->graphCount() > int(report->rows.size()));
            QVERIFY(view.chart()->xAxis->scaleType() == QCPAxis::stLogarithmic);
            QVERIFY(view.chart()->yAxis->scaleType() == QCPAxis::stLogarithmic);

            // A click on the first row (the largest GEMM) asks for its calls, longest first.
            QSignalSpy activated(&view, &widgets::EfficiencyView::callsActivated);
            const QModelIndex first = view.table()->proxy()->index(0, 0);
            emit view.table()->view()->clicked(first);
            QCOMPARE(activated.count(), 1);
            const auto calls = activated.front().front().value<std::vector<core::EfficiencyCall>>();
            QCOMPARE(std::int64_t(calls.size()), report->rows[0].calls);
            QVERIFY(calls.front().kernelTime >= calls.back().kernelTime);
            // The Details panel's lookup finds the row of a call.
            QVERIFY(view.rowOfCall(calls.front().rankIndex, calls.front().slice) == &report->rows[0]);

            // A range restricts it: the first millisecond of the trace holds no modelled call.
            const core::TimeNs start = set->startNs();
            view.compute(set, core::AnalysisWindow { start, start + 1000 });
            QVERIFY(computed.wait(60000));
            QVERIFY2(view.summaryText().startsWith(QStringLiteral("Not applicable")),
                qPrintable(view.summaryText()));
        }
    }

    void saysWhenNoShapesWereRecorded()
    {
        widgets::TaskPools pools;
        widgets::EfficiencyView view(&pools);
        QSignalSpy computed(&view, &widgets::EfficiencyView::computed);
        view.compute(test::loadSharedTraces("nccl_ns_resolution"), std::optional<core::AnalysisWindow> {});
        QVERIFY(computed.wait(60000));
        QVERIFY2(view.summaryText().contains(QStringLiteral("record_shapes=True")),
            qPrintable(view.summaryText()));
        QVERIFY(view.table()->proxy()->rowCount() > 0);
    }
};

Q_DECLARE_METATYPE(std::vector<ks::core::EfficiencyCall>)

KS_TEST_MAIN(tst_efficiency_view, TestEfficiencyView)
#include "tst_efficiency_view.moc"
