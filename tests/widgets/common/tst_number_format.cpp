// The one number policy (widgets/common/format.h). Column
// names and units as the analyses declare them (both modes' spellings) give
// human titles and cells a person reads without counting digits.
#include "tests/support/test_main.h"
#include "widgets/common/format.h"

#include <QLocale>
#include <QTest>

using namespace ks::widgets;

class TestNumberFormat : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void titles_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("title");
        QTest::newRow("temporal") << "idle_time(us)"
                                  << "Idle time";
        QTest::newRow("temporal pct") << "idle_time_pctg"
                                      << "Idle time share";
        QTest::newRow("idle default") << "idle_time_us"
                                      << "Idle time";
        QTest::newRow("kernel sum") << "sum (us)"
                                    << "Sum";
        QTest::newRow("kernel share") << "percentage"
                                      << "Share";
        QTest::newRow("bw stat") << "memory_bw_gbps.25%"
                                 << "Memory bandwidth p25";
        QTest::newRow("queue stat") << "queue_length.std"
                                    << "Queue length std dev";
        QTest::newRow("launch") << "cpu_duration_us"
                                << "CPU duration";
        QTest::newRow("overlap") << "comp_comm_overlap_pctg"
                                 << "Compute communication overlap share";
        QTest::newRow("stat") << "p25_us"
                              << "P25";
    }

    void titles()
    {
        QFETCH(QString, name);
        QFETCH(QString, title);
        QCOMPARE(humanTitle(name.toStdString()), title);
        QVERIFY(!title.contains(QChar(u'_')));
    }

    void values_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<int>("kind");
        QTest::newRow("idle µs") << "idle_time(us)"
                                 << "us" << 43.06141917 << "43.1 µs" << int(NumberKind::Duration);
        QTest::newRow("idle ms") << "idle_time(us)"
                                 << "us" << 123456.789 << "123 ms" << int(NumberKind::Duration);
        QTest::newRow("sub-µs mean") << "mean_us"
                                     << "us" << 0.5 << "500 ns" << int(NumberKind::Duration);
        QTest::newRow("hta compat") << "idle_time"
                                    << "us" << 1500.0 << "1.50 ms" << int(NumberKind::Duration);
        QTest::newRow("ms column") << "duration_ms"
                                   << "ms" << 2.5 << "2.50 ms" << int(NumberKind::Duration);
        QTest::newRow("pct") << "idle_time_pctg"
                             << "" << 12.3456 << "12.3 %" << int(NumberKind::Percent);
        QTest::newRow("ratio") << "idle_time_ratio"
                               << "" << 0.12345 << "12.3 %" << int(NumberKind::Ratio);
        QTest::newRow("count") << "count"
                               << "" << 1234567.0 << "1,234,567" << int(NumberKind::Count);
        QTest::newRow("stat count") << "queue_length.count"
                                    << "" << 4855.0 << "4,855" << int(NumberKind::Count);
        QTest::newRow("rank") << "rank"
                              << "" << 1024.0 << "1024" << int(NumberKind::Identifier);
        QTest::newRow("correlation") << "correlation"
                                     << "" << 123456.0 << "123456" << int(NumberKind::Identifier);
        QTest::newRow("bandwidth") << "memory_bw_gbps.mean"
                                   << "" << 12.3456789 << "12.35" << int(NumberKind::Real);
        QTest::newRow("queue mean") << "queue_length.mean"
                                    << "" << 0.0123456 << "0.01235" << int(NumberKind::Real);
        QTest::newRow("big real") << "queue_length.mean"
                                  << "" << 12345.678 << "12,346" << int(NumberKind::Real);
        QTest::newRow("bytes") << "bytes"
                               << "" << 1073741824.0 << "1.0 GiB" << int(NumberKind::Bytes);
        QTest::newRow("timestamp") << "ts_us"
                                   << "us" << 1718062341234567.0 << "1,718,062,341,234,567"
                                   << int(NumberKind::Timestamp);
    }

    void values()
    {
        QFETCH(QString, name);
        QFETCH(QString, unit);
        QFETCH(double, value);
        QFETCH(QString, shown);
        QFETCH(int, kind);
        const ColumnFormat format = columnFormat(name.toStdString(), unit.toStdString());
        QCOMPARE(int(format.kind), kind);
        QCOMPARE(formatValue(value, format), shown);
    }

    void unitsGoToTheHeaderWhenCellsHaveNone()
    {
        QCOMPARE(
            columnFormat("memory_bw_gbps.mean", "").title, QStringLiteral("Memory bandwidth mean (GB/s)"));
        QCOMPARE(columnFormat("ts", "us").title, QStringLiteral("Time (µs)"));
        QCOMPARE(columnFormat("idle_time(us)", "us").title, QStringLiteral("Idle time")); // cells say µs/ms
    }

    void durationsKeepThreeSignificantDigits()
    {
        QCOMPARE(formatDurationReal(850.0), QStringLiteral("850 ns"));
        QCOMPARE(formatDurationReal(1490.0), QStringLiteral("1.49 µs"));
        QCOMPARE(formatDurationReal(45'600'000.0), QStringLiteral("45.6 ms"));
        QCOMPARE(formatDurationReal(1.2345e9), QStringLiteral("1.234 s"));
        QCOMPARE(formatPercent(99.96), QStringLiteral("100.0 %"));
        QVERIFY(formatDurationReal(std::nan("")).isEmpty());
    }
};

KS_TEST_MAIN(tst_number_format, TestNumberFormat)
#include "tst_number_format.moc"
