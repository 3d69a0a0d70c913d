#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/category_counts_model.h"

#include <QAbstractItemModelTester>
#include <QTest>

using ks::widgets::CategoryCountsModel;

class TestCategoryCountsModel : public QObject
{
    Q_OBJECT

private slots:

    void sumsOverRanks()
    {
        CategoryCountsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRanks({ ks::test::makeRank(0, "/a/0.json"), ks::test::makeRank(1, "/a/1.json") });
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), CategoryCountsModel::FirstPhaseColumn + int(ks::core::kPhaseCount));
        // Sorted by total, largest first: kernel 80, cpu_op 80 (stable: map order), counters 20.
        QCOMPARE(
            model.index(0, CategoryCountsModel::CategoryColumn).data().toString(), QStringLiteral("cpu_op"));
        QCOMPARE(model.index(0, CategoryCountsModel::TotalColumn)
                     .data(CategoryCountsModel::SortRole)
                     .toULongLong(),
            80ull);
        const int xColumn = CategoryCountsModel::FirstPhaseColumn + int(ks::core::Phase::Complete);
        QCOMPARE(model.headerData(xColumn, Qt::Horizontal).toString(), QStringLiteral("X"));
        QCOMPARE(model.index(1, xColumn).data(CategoryCountsModel::SortRole).toULongLong(), 80ull);
        QCOMPARE(model.index(2, CategoryCountsModel::CategoryColumn).data().toString(),
            QStringLiteral("(no category)"));
    }

    void blankZeros()
    {
        CategoryCountsModel model;
        model.setRanks({ ks::test::makeRank(0, "/a/0.json") });
        const int counterColumn = CategoryCountsModel::FirstPhaseColumn + int(ks::core::Phase::Counter);
        QCOMPARE(model.index(0, counterColumn).data().toString(), QString());
        QCOMPARE(model.index(0, counterColumn).data(CategoryCountsModel::SortRole).toULongLong(), 0ull);
    }

    void emptyRanks()
    {
        CategoryCountsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRanks({});
        QCOMPARE(model.rowCount(), 0);
        model.setRanks({ nullptr });
        QCOMPARE(model.rowCount(), 0);
        // A category the reader saw with no events (all counts zero) is not listed.
        auto rank = ks::test::makeRank(0, "/a/0.json");
        rank->counts.byCategory["empty"];
        model.setRanks({ rank });
        QCOMPARE(model.rowCount(), 3);
    }
};

KS_TEST_MAIN(tst_category_counts_model, TestCategoryCountsModel)
#include "tst_category_counts_model.moc"
