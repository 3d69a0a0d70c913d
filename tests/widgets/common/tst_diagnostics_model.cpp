#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/diagnostics_model.h"
#include "widgets/common/diagnostics_panel.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using ks::core::DiagnosticKind;
using ks::widgets::DiagnosticsModel;

class TestDiagnosticsModel : public QObject
{
    Q_OBJECT

private:
    static std::shared_ptr<const ks::core::TraceSet> makeSet()
    {
        auto set = std::make_shared<ks::core::TraceSet>();
        auto r0 = ks::test::makeRank(0, "/job/rank-0.json");
        r0->diagnostics.addCount(DiagnosticKind::OverlappingSlices, 12, R"({"name":"aten::mm"})", 40);
        r0->diagnostics.add(DiagnosticKind::RankFromFileName, "rank-0.json");
        auto r1 = ks::test::makeRank(1, "/job/rank-1.json");
        r1->diagnostics.addCount(DiagnosticKind::UnmatchedEnd, 3, R"({"ph":"E"})");
        set->ranks = { r0, r1 };
        set->folderDiagnostics.add(DiagnosticKind::SkippedFile, "/job/et.json");
        set->notes.push_back("et.json has no traceEvents: skipped");
        set->failures.push_back(ks::core::Error {
            ks::core::ErrorCode::TruncatedGzip, "truncated gzip", "/job/rank-2.json.gz", {} });
        return set;
    }

    static int findRow(const DiagnosticsModel& model, const QString& kind, const QString& rank)
    {
        for (int row = 0; row < model.rowCount(); ++row) {
            if (model.index(row, 0).data(DiagnosticsModel::KindRole).toString() == kind
                && model.index(row, DiagnosticsModel::RankColumn).data().toString() == rank)
                return row;
        }
        return -1;
    }

private slots:

    void listsEverything()
    {
        DiagnosticsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTraceSet(makeSet());
        // 1 failure + 1 job-level + 2 in rank 0 + 1 in rank 1 + 1 note
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.count(DiagnosticsModel::Severity::Error), 1);
        QCOMPARE(model.count(DiagnosticsModel::Severity::Warning), 2);
        QCOMPARE(model.count(DiagnosticsModel::Severity::Info), 3);

        const int overlap = findRow(model, QStringLiteral("overlapping-slices"), QStringLiteral("0"));
        QVERIFY(overlap >= 0);
        QCOMPARE(model.index(overlap, DiagnosticsModel::CountColumn)
                     .data(DiagnosticsModel::SortRole)
                     .toULongLong(),
            12ull);
        QVERIFY(model.index(overlap, DiagnosticsModel::ExampleColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("aten::mm")));
        QVERIFY(model.index(overlap, DiagnosticsModel::ExampleColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("[40]")));
        QCOMPARE(model.index(overlap, DiagnosticsModel::FileColumn).data().toString(),
            QStringLiteral("rank-0.json"));
        QVERIFY(!model.index(overlap, DiagnosticsModel::AnomalyColumn)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .isEmpty());

        QVERIFY(findRow(model, QStringLiteral("unmatched-end"), QStringLiteral("1")) >= 0);
        QVERIFY(findRow(model, QStringLiteral("skipped-file"), QStringLiteral("job")) >= 0);
        const int failure = findRow(model, QStringLiteral("load-error"), QStringLiteral("—"));
        QVERIFY(failure >= 0);
        QVERIFY(model.index(failure, DiagnosticsModel::ExampleColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("truncated gzip")));
        QCOMPARE(model.index(failure, 0).data(DiagnosticsModel::SeverityRole).toInt(),
            int(DiagnosticsModel::Severity::Error));
    }

    void cleanImportIsEmpty()
    {
        DiagnosticsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto set = std::make_shared<ks::core::TraceSet>();
        set->ranks = { ks::test::makeRank(0, "/job/rank-0.json") };
        model.setTraceSet(set);
        QCOMPARE(model.rowCount(), 0);
        model.setTraceSet(makeSet());
        model.setTraceSet(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void panelFiltersAndSummarises()
    {
        ks::widgets::DiagnosticsPanel panel;
        panel.setTraceSet(makeSet());
        QVERIFY(panel.summary().contains(QStringLiteral("1 failed file")));
        QAbstractItemModelTester tester(
            panel.view()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(panel.view()->model()->rowCount(), 6);
        auto* filter = panel.findChild<QLineEdit*>(QStringLiteral("diagnosticsFilter"));
        QVERIFY(filter);
        filter->setText(QStringLiteral("overlapping"));
        QCOMPARE(panel.view()->model()->rowCount(), 1);
        filter->clear();
        panel.setTraceSet(nullptr);
        QCOMPARE(panel.summary(), QStringLiteral("Nothing loaded"));
    }
};

KS_TEST_MAIN(tst_diagnostics_model, TestDiagnosticsModel)
#include "tst_diagnostics_model.moc"
