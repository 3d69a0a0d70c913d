// Microsecond token text -> integer nanoseconds, exactly (product spec L3).
// Expected values are worked out by hand from the decimal text: µs * 1000, with
// digits past the nanosecond rounded half away from zero.

#include "core/io/json/fixed_point.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

using ks::core::microsecondsTextToNanoseconds;

class TestFixedPoint : public QObject
{
    Q_OBJECT

private slots:
    void converts_data();
    void converts();
    void rejects_data();
    void rejects();
    void exponentAtEpochScaleIsExact();
};

// moc reads raw string literals as ordinary strings and trips on the JSON
// inside them: fixtures and slot bodies are kept out of its sight.
#ifndef Q_MOC_RUN

void TestFixedPoint::converts_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::addColumn<qint64>("expected");

    // Epoch-scale values: a double holds only ~15.9 significant digits, so
    // these would lose their sub-microsecond part through double.
    QTest::newRow("epoch 1 decimal") << QByteArray("1712195495505543.2") << Q_INT64_C(1712195495505543200);
    QTest::newRow("epoch 3 decimals") << QByteArray("1712195495519689.047") << Q_INT64_C(1712195495519689047);
    QTest::newRow("epoch integer") << QByteArray("1712195495505543") << Q_INT64_C(1712195495505543000);
    QTest::newRow("epoch .999") << QByteArray("1712195495505543.999") << Q_INT64_C(1712195495505543999);
    QTest::newRow("68.0") << QByteArray("68.0") << Q_INT64_C(68000);
    QTest::newRow("0.001") << QByteArray("0.001") << Q_INT64_C(1);
    QTest::newRow("0.01") << QByteArray("0.01") << Q_INT64_C(10);
    QTest::newRow("zero") << QByteArray("0") << Q_INT64_C(0);
    QTest::newRow("zero point zero") << QByteArray("0.0") << Q_INT64_C(0);
    QTest::newRow("integer") << QByteArray("12") << Q_INT64_C(12000);
    QTest::newRow("-3") << QByteArray("-3") << Q_INT64_C(-3000);
    QTest::newRow("-0.5") << QByteArray("-0.5") << Q_INT64_C(-500);
    QTest::newRow("-epoch") << QByteArray("-1712195495505543.2") << Q_INT64_C(-1712195495505543200);
    QTest::newRow("leading zeros") << QByteArray("007.5") << Q_INT64_C(7500);

    // Exponents (not written by Kineto, but valid JSON).
    QTest::newRow("1e3") << QByteArray("1e3") << Q_INT64_C(1000000);
    QTest::newRow("1.5e3") << QByteArray("1.5e3") << Q_INT64_C(1500000);
    QTest::newRow("1.5E3") << QByteArray("1.5E3") << Q_INT64_C(1500000);
    QTest::newRow("2e-3") << QByteArray("2e-3") << Q_INT64_C(2);
    QTest::newRow("-1e0") << QByteArray("-1e0") << Q_INT64_C(-1000);
    QTest::newRow("1e+2") << QByteArray("1e+2") << Q_INT64_C(100000);

    // More than 3 decimals: rounded half away from zero at the nanosecond.
    QTest::newRow("4 decimals down") << QByteArray("2.0004") << Q_INT64_C(2000);
    QTest::newRow("4 decimals half up") << QByteArray("2.0005") << Q_INT64_C(2001);
    QTest::newRow("4 decimals up") << QByteArray("2.0009") << Q_INT64_C(2001);
    QTest::newRow("many decimals below half") << QByteArray("2.000499999") << Q_INT64_C(2000);
    QTest::newRow("many decimals half") << QByteArray("2.00050000") << Q_INT64_C(2001);
    QTest::newRow("negative half away from zero") << QByteArray("-2.0005") << Q_INT64_C(-2001);
    QTest::newRow("carry into microseconds") << QByteArray("0.9995") << Q_INT64_C(1000);
    QTest::newRow("carry at epoch scale")
        << QByteArray("1712195495505543.9996") << Q_INT64_C(1712195495505544000);
    QTest::newRow("sub-ns rounds to 1") << QByteArray("0.0009999") << Q_INT64_C(1);
    QTest::newRow("sub-ns rounds to 0") << QByteArray("0.0004") << Q_INT64_C(0);

    // Raw tokens may carry trailing whitespace.
    QTest::newRow("trailing space") << QByteArray("68.5 \n") << Q_INT64_C(68500);

    // int64 limits: INT64_MAX ns = 9223372036854775.807 µs.
    QTest::newRow("int64 max") << QByteArray("9223372036854775.807") << std::numeric_limits<qint64>::max();
    QTest::newRow("-int64 max") << QByteArray("-9223372036854775.807") << -std::numeric_limits<qint64>::max();
}

void TestFixedPoint::converts()
{
    QFETCH(QByteArray, token);
    QFETCH(qint64, expected);
    const std::optional<std::int64_t> ns =
        microsecondsTextToNanoseconds(std::string_view(token.constData(), token.size()));
    QVERIFY2(ns.has_value(), token.constData());
    QCOMPARE(qint64(*ns), expected);
}

void TestFixedPoint::rejects_data()
{
    QTest::addColumn<QByteArray>("token");
    QTest::newRow("empty") << QByteArray("");
    QTest::newRow("blank") << QByteArray("   ");
    QTest::newRow("letters") << QByteArray("abc");
    QTest::newRow("minus only") << QByteArray("-");
    QTest::newRow("no integer part") << QByteArray(".5");
    QTest::newRow("no fraction digits") << QByteArray("1.");
    QTest::newRow("two dots") << QByteArray("1.2.3");
    QTest::newRow("trailing letters") << QByteArray("12abc");
    QTest::newRow("exponent without digits") << QByteArray("1e");
    QTest::newRow("exponent overflow") << QByteArray("1e400");
    QTest::newRow("nan") << QByteArray("nan");
    QTest::newRow("inf") << QByteArray("inf");
    QTest::newRow("quoted") << QByteArray("\"12\"");
    QTest::newRow("plus sign") << QByteArray("+5");
    QTest::newRow("hex") << QByteArray("0x10");
    QTest::newRow("far too big") << QByteArray("99999999999999999999999");
    // One past the largest int64 nanosecond value, and a whole number of µs
    // whose nanoseconds (x1000) no longer fit: must not wrap to negative.
    QTest::newRow("int64 max + 1 ns") << QByteArray("9223372036854775.808");
    QTest::newRow("whole us over int64 ns") << QByteArray("9223372036854776");
}

void TestFixedPoint::rejects()
{
    QFETCH(QByteArray, token);
    const auto ns = microsecondsTextToNanoseconds(std::string_view(token.constData(), token.size()));
    QVERIFY2(!ns.has_value(), qPrintable(QStringLiteral("accepted as %1 ns").arg(ns.value_or(0))));
}

// The header promises exact conversion for exponent forms too ("1.5e3").
// 1712195495505.5432e3 µs = 1712195495505543.2 µs = 1712195495505543200 ns
// exactly (decimal arithmetic); through double it becomes ...543168.
void TestFixedPoint::exponentAtEpochScaleIsExact()
{
    const auto ns = microsecondsTextToNanoseconds("1712195495505.5432e3");
    QVERIFY(ns.has_value());
    QCOMPARE(qint64(*ns), Q_INT64_C(1712195495505543200));
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_fixed_point, TestFixedPoint)
#include "tst_fixed_point.moc"
