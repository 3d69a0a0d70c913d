// stepEnvelope (widgets/memory_snapshot/step_envelope.h): the Active Memory
// Timeline's total and summarized band reduced to one column per pixel. Hand
// cases: a column holding a spike keeps both its top and its bottom; the band
// spans the highest total to the lowest drawn top of each column; values
// before the visible range hold from its left edge; a million samples give a
// few points per column, not a million.
#include "tests/support/test_main.h"
#include "widgets/memory_snapshot/step_envelope.h"

#include <QTest>

#include <vector>

using namespace ks::widgets;

class TestStepEnvelope : public QObject
{
    Q_OBJECT

private slots:

    void spikeInsideOneColumnIsKept()
    {
        // Screen y: 100 is the baseline, 20 the spike's top, inside column 1 (x 1.2 to 1.6).
        const std::vector<StepSample> s { { 0.0, 100, 100 }, { 1.2, 20, 100 }, { 1.6, 100, 100 } };
        const StepEnvelope e = stepEnvelope(s, 0, 3, false);
        const QPolygonF expected { { 0, 100 }, { 0, 100 }, // column 0: flat
            { 1, 100 }, { 1, 20 }, { 1, 100 }, { 1, 100 }, // column 1: enter, top, bottom, exit
            { 2, 100 }, { 2, 100 }, { 3, 100 } };
        QCOMPARE(e.outline, expected);
        QVERIFY(e.band.isEmpty());
    }

    void bandSpansHighestTotalToLowestDrawnTop()
    {
        // Column 0: total 50 then 30, drawn top 60 then 80; column 1 holds the last values.
        const std::vector<StepSample> s { { 0.0, 50, 60 }, { 0.5, 30, 80 } };
        const StepEnvelope e = stepEnvelope(s, 0, 2, true);
        const QPolygonF expected { { 0, 30 }, { 1, 30 }, { 1, 30 }, { 2, 30 }, // the top, left to right
            { 2, 80 }, { 1, 80 }, { 1, 80 }, { 0, 80 } }; // the drawn top, right to left
        QCOMPARE(e.band, expected);
    }

    void valuesBeforeTheRangeHoldFromItsLeft()
    {
        // Zoomed in: the last change before x 10 sets what columns 10 and 11 start with.
        const std::vector<StepSample> s { { 2.0, 90, 90 }, { 7.0, 40, 40 }, { 11.5, 60, 60 },
            { 30.0, 10, 10 } };
        const StepEnvelope e = stepEnvelope(s, 10, 12, false);
        const QPolygonF expected { { 10, 40 }, { 10, 40 }, { 11, 40 }, { 11, 40 }, { 11, 60 }, { 11, 60 },
            { 12, 60 } };
        QCOMPARE(e.outline, expected);
    }

    void millionsOfSamplesGiveAFewPointsPerColumn()
    {
        std::vector<StepSample> s;
        for (int i = 0; i < 1000000; ++i)
            s.push_back({ i / 1000.0, double(100 - i % 97), 100 });
        const StepEnvelope e = stepEnvelope(s, 0, 1000, true);
        QVERIFY(e.outline.size() <= 4 * 1000 + 1);
        QCOMPARE(e.band.size(), qsizetype(4 * 1000));
        // Every column reaches the highest total of its thousand samples (y 4 = 100 - 96).
        QCOMPARE(e.band[0].y(), 4.0);
        QCOMPARE(e.band[2 * 999].y(), 4.0);
    }
};

KS_TEST_MAIN(tst_step_envelope, TestStepEnvelope)
#include "tst_step_envelope.moc"
