// Coordinate maths of the timeline at extreme zooms: nanosecond windows and
// whole traces, with traces starting at epoch-scale nanoseconds (~1.7e18),
// where a float (or a double of the absolute time) loses the nanoseconds.
#include "tests/support/test_main.h"
#include "widgets/timeline/model/time_axis.h"

#include <QTest>

using namespace ks::widgets;

namespace {
constexpr TimeNs kEpoch = 1'712'345'678'901'234'567LL; // 2024-04-05 in ns
} // namespace

class TimelineAxisTest : public QObject
{
    Q_OBJECT

private slots:

    void nanosecondWindowAtEpochScale()
    {
        // 250 ns over 1000 px: 4 px per ns.
        const TimeAxis axis({ kEpoch, kEpoch + 250 }, 1000);
        QCOMPARE(axis.x(kEpoch), 0.0);
        QCOMPARE(axis.x(kEpoch + 1), 4.0);
        QCOMPARE(axis.x(kEpoch + 250), 1000.0);
        for (TimeNs t = kEpoch; t <= kEpoch + 250; ++t)
            QCOMPARE(axis.timeAt(axis.x(t)), t);
        QCOMPARE(axis.timeAt(5.9), kEpoch + 1); // 1.475 ns rounds to 1
        QCOMPARE(axis.timeAt(6.1), kEpoch + 2);
        // What the float maths this replaces would give: not even the right second.
        const float xf = static_cast<float>(kEpoch + 1) - static_cast<float>(kEpoch);
        QVERIFY(xf != 1.0f);
    }

    void wholeTraceAtEpochScale()
    {
        const TimeNs hour = 3'600'000'000'000LL;
        const TimeAxis axis({ kEpoch, kEpoch + hour }, 1600);
        QCOMPARE(axis.x(kEpoch + hour / 2), 800.0);
        QCOMPARE(axis.timeAt(800), kEpoch + hour / 2);
        // A 1 ns slice one hour in is still at the right pixel.
        QVERIFY(qAbs(axis.x(kEpoch + hour - 1) - 1600.0) < 1e-6);
        QCOMPARE(axis.nsPerPx(), static_cast<double>(hour) / 1600.0);
    }

    void zoomKeepsTheAnchor_data()
    {
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("anchor");
        QTest::newRow("in 2x at 30%") << 0.5 << 0.3;
        QTest::newRow("in 10x at the left") << 0.1 << 0.0;
        QTest::newRow("out 2x at 90%") << 2.0 << 0.9;
        QTest::newRow("in 1000x at the middle") << 0.001 << 0.5;
    }

    void zoomKeepsTheAnchor()
    {
        QFETCH(double, factor);
        QFETCH(double, anchor);
        const TimeRange bounds { kEpoch, kEpoch + 1'000'000'000 };
        const TimeRange view { kEpoch + 400'000'000, kEpoch + 600'000'000 }; // room to zoom out 2x
        const TimeNs anchorTime = view.start + static_cast<TimeNs>(anchor * static_cast<double>(view.span()));
        const TimeRange zoomed = zoomRange(view, factor, anchor, bounds);
        QCOMPARE(zoomed.span(), static_cast<TimeNs>(static_cast<double>(view.span()) * factor));
        const TimeNs after = zoomed.start + static_cast<TimeNs>(anchor * static_cast<double>(zoomed.span()));
        QVERIFY2(qAbs(after - anchorTime) <= 1, qPrintable(QString::number(after - anchorTime)));
    }

    void zoomStopsAtLimits()
    {
        const TimeRange bounds { kEpoch, kEpoch + 1'000'000 };
        TimeRange view = bounds;
        for (int i = 0; i < 100; ++i)
            view = zoomRange(view, 0.5, 0.5, bounds);
        QCOMPARE(view.span(), kMinViewSpanNs);
        QVERIFY(view.start >= bounds.start && view.end <= bounds.end);
        for (int i = 0; i < 100; ++i)
            view = zoomRange(view, 2.0, 0.5, bounds);
        // At most the bounds plus a 5 % margin each side.
        QVERIFY(view.span() <= bounds.span() * 11 / 10);
        QVERIFY(view.start >= bounds.start - bounds.span() / 20);
    }

    void panIsClamped()
    {
        const TimeRange bounds { kEpoch, kEpoch + 1'000'000 };
        const TimeRange view { kEpoch + 1000, kEpoch + 2000 };
        QCOMPARE(panRange(view, 500, bounds), (TimeRange { kEpoch + 1500, kEpoch + 2500 }));
        const TimeRange left = panRange(view, -10'000'000, bounds);
        QCOMPARE(left.span(), view.span());
        QCOMPARE(left.start, bounds.start - bounds.span() / 20);
    }

    void framedRangeShowsBothEnds()
    {
        const TimeRange bounds { kEpoch, kEpoch + 1'000'000'000 };
        const TimeRange r = framedRange(kEpoch + 5000, kEpoch + 6000, bounds, 0.1);
        QVERIFY(r.start <= kEpoch + 5000 && r.end >= kEpoch + 6000);
        QCOMPARE(r.span(), 1200);
        // A zero-length slice still gets a usable window.
        QVERIFY(framedRange(kEpoch + 7, kEpoch + 7, bounds).span() >= kMinViewSpanNs);
    }

    void rulerTicksAreNiceAndApart_data()
    {
        QTest::addColumn<TimeNs>("span");
        QTest::newRow("250 ns") << TimeNs(250);
        QTest::newRow("10 us") << TimeNs(10'000);
        QTest::newRow("1 ms") << TimeNs(1'000'000);
        QTest::newRow("3.4 s") << TimeNs(3'400'000'000);
        QTest::newRow("2 h") << TimeNs(7'200'000'000'000);
    }

    void rulerTicksAreNiceAndApart()
    {
        QFETCH(TimeNs, span);
        const TimeNs origin = kEpoch - 123'456; // the trace start: ticks are multiples from there
        const TimeAxis axis({ kEpoch, kEpoch + span }, 1400);
        const RulerScale scale = rulerScale(axis, origin, 110);
        QVERIFY(!scale.majors.empty());
        TimeNs digits = scale.majorStep;
        while (digits % 10 == 0)
            digits /= 10;
        QVERIFY2(digits == 1 || digits == 2 || digits == 5, qPrintable(QString::number(scale.majorStep)));
        QVERIFY(axis.x(kEpoch + scale.majorStep) - axis.x(kEpoch) >= 110);
        for (TimeNs t : scale.majors) {
            QCOMPARE((t - origin) % scale.majorStep, 0);
            QVERIFY(t >= kEpoch && t <= kEpoch + span);
        }
        // Adjacent labels differ: the decimals resolve the step.
        for (std::size_t i = 1; i < scale.majors.size(); ++i)
            QVERIFY(formatTickLabel(scale.majors[i] - origin, scale.majorStep)
                != formatTickLabel(scale.majors[i - 1] - origin, scale.majorStep));
    }

    void tickLabels()
    {
        QCOMPARE(formatTickLabel(0, 1000), QStringLiteral("0"));
        QCOMPARE(formatTickLabel(250'000, 50'000), QStringLiteral("250 µs"));
        QCOMPARE(formatTickLabel(12'345'500, 500), QStringLiteral("12.3455 ms"));
        QCOMPARE(formatTickLabel(1'500'000'000, 500'000'000), QStringLiteral("1.5 s"));
        QCOMPARE(formatTickLabel(1'500'000'002, 2), QStringLiteral("1.500000002 s"));
        QCOMPARE(formatTickLabel(40, 10), QStringLiteral("40 ns"));
        QCOMPARE(formatPreciseTime(12'345'678), QStringLiteral("12.345678 ms"));
    }
};

KS_TEST_MAIN(tst_timeline_axis, TimelineAxisTest)
#include "tst_timeline_axis.moc"
