// Result tables: the compact row store gives back exactly the cells it was
// given (every kind, ragged rows, texts), and tables print for people and CSV
// with the shortest exact text for doubles.

#include "core/analysis/tables/table.h"
#include "core/report/hta_json_writer.h"
#include "core/report/table_text.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cmath>
#include <limits>

using ks::core::Cell;
using ks::core::Table;
using ks::core::TableRows;

class TestTable : public QObject
{
    Q_OBJECT

private slots:

    void rowsReturnTheirCells()
    {
        TableRows rows;
        const std::vector<Cell> first { Cell {}, std::int64_t(-7), 0.1,
            std::string("ncclKernel \"AllReduce\"") };
        const std::vector<Cell> second { std::numeric_limits<std::int64_t>::min(), -0.0, std::string() };
        const std::vector<Cell> empty;
        rows.push_back(first);
        rows.push_back(second);
        rows.push_back(empty);
        QCOMPARE(rows.size(), std::size_t(3));
        QVERIFY(rows[0] == first);
        QVERIFY(rows[1] == second);
        QVERIFY(rows[2].empty());
        QCOMPARE(rows[1].size(), std::size_t(3));
        QVERIFY(std::signbit(std::get<double>(rows[1][1]))); // -0.0 kept bit for bit
        QCOMPARE(std::get<std::string>(rows[0][3]), std::string("ncclKernel \"AllReduce\""));
        std::size_t seen = 0;
        for (const auto& row : rows)
            seen += row.size();
        QCOMPARE(seen, std::size_t(7));
    }

    // A list HTA keeps as a Python object (an args list, op_stack): JSON output writes the
    // pre-encoded JSON as is, so it stays a list; text and CSV show its JSON text.
    void jsonCellsStayJson()
    {
        TableRows rows;
        const std::vector<Cell> row { ks::core::JsonText { R"([[2, 3], []])" }, std::string("[]") };
        rows.push_back(row);
        QVERIFY(rows[0] == row);
        QVERIFY(std::holds_alternative<ks::core::JsonText>(rows[0][0]));
        QVERIFY(std::holds_alternative<std::string>(rows[0][1])); // a text that looks like a list stays text
        QCOMPARE(ks::core::cellAsText(rows[0][0]), std::string("[[2, 3], []]"));
        QVERIFY(ks::core::cellIsText(rows[0][0]));
        std::string json;
        ks::core::appendCellJson(json, rows[0][0]);
        QCOMPARE(json, std::string("[[2, 3], []]"));
        json.clear();
        ks::core::appendCellJson(json, rows[0][1]);
        QCOMPARE(json, std::string(R"("[]")"));
    }

    void nanAndInfinitiesSurvive()
    {
        TableRows rows;
        rows.push_back({ std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity() });
        QVERIFY(std::isnan(std::get<double>(rows[0][0])));
        QVERIFY(std::isinf(std::get<double>(rows[0][1])));
    }

    void doublesPrintShortestExact()
    {
        QCOMPARE(ks::core::cellAsText(Cell { 55.21 }), std::string("55.21"));
        QCOMPARE(ks::core::cellAsText(Cell { 0.1 + 0.2 }), std::string("0.30000000000000004"));
        QCOMPARE(
            ks::core::cellAsText(Cell { std::int64_t(1700000000123456) }), std::string("1700000000123456"));
        QCOMPARE(ks::core::cellAsText(Cell {}), std::string());
    }

    void csvHasHeaderAndRows()
    {
        Table t;
        t.name = "temporal";
        t.columns = { { "rank", "" }, { "idle_time_pctg", "%" }, { "name", "" } };
        t.addRow({ std::int64_t(0), 55.21, std::string("a,b") });
        t.addRow({ std::int64_t(1), Cell {}, std::string("plain") });
        const std::string csv = ks::core::tableAsCsv(t);
        QVERIFY2(csv.rfind("rank,idle_time_pctg", 0) == 0, csv.c_str());
        QVERIFY2(csv.find("0,55.21,\"a,b\"") != std::string::npos, csv.c_str());
        QVERIFY2(csv.find("1,,plain") != std::string::npos, csv.c_str());
    }
};

KS_TEST_MAIN(tst_table, TestTable)
#include "tst_table.moc"
