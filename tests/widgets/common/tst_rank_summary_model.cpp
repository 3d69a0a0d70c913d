#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/rank_summary_model.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using ks::widgets::RankSummaryModel;

class TestRankSummaryModel : public QObject
{
    Q_OBJECT

private:
    static std::shared_ptr<const ks::core::TraceSet> makeSet()
    {
        auto set = std::make_shared<ks::core::TraceSet>();
        auto r1 = ks::test::makeRank(1, "/data/job/rank-1.json.gz");
        r1->counts.gzip = true;
        r1->diagnostics.add(ks::core::DiagnosticKind::OrphanFlowEnd, R"({"ph":"f"})", 12);
        set->ranks = { ks::test::makeRank(0, "/data/job/rank-0.json"), r1 };
        set->failures.push_back(ks::core::Error {
            ks::core::ErrorCode::NotJson, "not JSON: unexpected character", "/data/job/rank-2.json", 17 });
        return set;
    }

private slots:

    void emptyModel()
    {
        RankSummaryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(RankSummaryModel::ColumnCount));
        QVERIFY(!model.headerData(RankSummaryModel::FileColumn, Qt::Horizontal).toString().isEmpty());
    }

    void rowsForRanksAndFailures()
    {
        RankSummaryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setTraceSet(makeSet());
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rankRowCount(), 2);
        QCOMPARE(model.failureRowCount(), 1);
        QVERIFY(model.rankAt(0));
        QVERIFY(!model.rankAt(2));
        QVERIFY(model.failureAt(2));

        const auto value = [&](int row, int column) {
            return model.index(row, column).data(RankSummaryModel::SortRole);
        };
        QCOMPARE(value(1, RankSummaryModel::RankColumn).toLongLong(), 1);
        QCOMPARE(value(0, RankSummaryModel::EventsColumn).toULongLong(), 100ull);
        QCOMPARE(value(0, RankSummaryModel::CompleteColumn).toULongLong(), 60ull);
        QCOMPARE(value(0, RankSummaryModel::InstantColumn).toULongLong(), 20ull);
        QCOMPARE(value(0, RankSummaryModel::CounterColumn).toULongLong(), 10ull);
        QCOMPARE(value(0, RankSummaryModel::FlowColumn).toULongLong(), 8ull);
        QCOMPARE(value(0, RankSummaryModel::GpuStreamsColumn).toInt(), 2);
        QCOMPARE(value(0, RankSummaryModel::CpuThreadsColumn).toInt(), 1);
        QCOMPARE(value(1, RankSummaryModel::StartColumn).toLongLong(), 500);
        QCOMPARE(value(0, RankSummaryModel::SpanColumn).toLongLong(), 2'000'000);
        QCOMPARE(value(1, RankSummaryModel::DiagnosticsColumn).toULongLong(), 1ull);
        QCOMPARE(
            model.index(0, RankSummaryModel::FileColumn).data().toString(), QStringLiteral("rank-0.json"));
        QCOMPARE(model.index(0, RankSummaryModel::SourceColumn).data().toString(),
            QStringLiteral("distributedInfo"));
        QVERIFY(
            model.index(1, RankSummaryModel::SizeColumn).data().toString().contains(QStringLiteral("gz")));
        QCOMPARE(model.index(0, RankSummaryModel::SpanColumn).data().toString(), QStringLiteral("2.00 ms"));
    }

    void failureRowShowsItsError()
    {
        RankSummaryModel model;
        model.setTraceSet(makeSet());
        const QModelIndex status = model.index(2, RankSummaryModel::StatusColumn);
        QVERIFY(status.data(RankSummaryModel::FailedRole).toBool());
        QVERIFY(!model.index(0, RankSummaryModel::StatusColumn).data(RankSummaryModel::FailedRole).toBool());
        QCOMPARE(status.data().toString(), QStringLiteral("Failed"));
        QCOMPARE(model.index(2, RankSummaryModel::ErrorTextColumn).data().toString(),
            QStringLiteral("not JSON: unexpected character (at byte 17)"));
        QVERIFY(model.index(2, RankSummaryModel::EventsColumn).data().toString().isEmpty());
        QCOMPARE(
            model.index(2, RankSummaryModel::FileColumn).data().toString(), QStringLiteral("rank-2.json"));
        QVERIFY(status.data(Qt::ToolTipRole).toString().contains(QStringLiteral("at byte 17")));
        QVERIFY(!status.data(Qt::DecorationRole).isNull());
        QCOMPARE(model.index(2, RankSummaryModel::FileColumn).data(RankSummaryModel::PathRole).toString(),
            QStringLiteral("/data/job/rank-2.json"));
    }

    void sortsNumericallyThroughAProxy()
    {
        auto set = std::make_shared<ks::core::TraceSet>();
        set->ranks = { ks::test::makeRank(2, "/a/r2.json"), ks::test::makeRank(10, "/a/r10.json"),
            ks::test::makeRank(9, "/a/r9.json") };
        RankSummaryModel model;
        model.setTraceSet(set);
        QSortFilterProxyModel proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setSortRole(RankSummaryModel::SortRole);
        proxy.sort(RankSummaryModel::RankColumn, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("2"));
        QCOMPARE(proxy.index(1, 0).data().toString(), QStringLiteral("9"));
        QCOMPARE(proxy.index(2, 0).data().toString(), QStringLiteral("10"));
    }

    void resetToNothing()
    {
        RankSummaryModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTraceSet(makeSet());
        model.setTraceSet(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

KS_TEST_MAIN(tst_rank_summary_model, TestRankSummaryModel)
#include "tst_rank_summary_model.moc"
