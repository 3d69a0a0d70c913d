// Range aggregation (T5): what lies in a time range, by name and track kind,
// with numbers worked out by hand.
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "widgets/timeline/model/range_aggregation.h"
#include "widgets/timeline/model/timeline_data.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ks;
using namespace ks::widgets;

namespace {

// Times in µs from 1000. GPU: gemm [0,10], relu [20,30], gemm [40,45], marker [50,50].
// CPU: step [0,60] containing aten::mm [2,12] and aten::mm [38,44].
QByteArray rankTrace(int rank, int shiftUs)
{
    auto at = [&](int us) { return QByteArray::number(1000 + shiftUs + us); };
    return QByteArrayLiteral(R"({"distributedInfo": {"rank": )") + QByteArray::number(rank)
        + QByteArrayLiteral(R"(},
 "traceEvents": [
  {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)")
        + at(0) + QByteArrayLiteral(R"(,"dur":10,"args":{"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"relu","pid":0,"tid":7,"ts":)")
        + at(20) + QByteArrayLiteral(R"(,"dur":10,"args":{"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)")
        + at(40) + QByteArrayLiteral(R"(,"dur":5,"args":{"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"marker","pid":0,"tid":7,"ts":)")
        + at(50) + QByteArrayLiteral(R"(,"dur":0,"args":{"stream":7,"device":0}},
  {"ph":"X","cat":"user_annotation","name":"step","pid":1,"tid":1,"ts":)")
        + at(0) + QByteArrayLiteral(R"(,"dur":60},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":)")
        + at(2) + QByteArrayLiteral(R"(,"dur":10},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":)")
        + at(38) + QByteArrayLiteral(R"(,"dur":6}
 ]})");
}

std::shared_ptr<const core::TraceSet> load(int ranks)
{
    QTemporaryDir dir;
    for (int r = 0; r < ranks; ++r) {
        QFile f(dir.filePath(QStringLiteral("rank-%1.json").arg(r)));
        const QByteArray json = rankTrace(r, r * 100); // rank r recorded r * 100 µs later
        if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size())
            return nullptr;
    }
    auto result = core::loadTraceSet({ dir.path().toStdString() }, {}, nullptr, nullptr);
    return result ? std::make_shared<const core::TraceSet>(std::move(result).value()) : nullptr;
}

const AggregateRow* row(const RangeAggregate& a, const char* name, bool gpu)
{
    for (const AggregateRow& r : a.rows)
        if (r.name == QLatin1String(name) && r.gpu == gpu)
            return &r;
    return nullptr;
}

constexpr TimeNs us(TimeNs v)
{
    return v * 1000;
}

} // namespace

class TimelineRangeTest : public QObject
{
    Q_OBJECT

private slots:

    void oneRankByHand()
    {
        const auto data = TimelineData::build(load(1));
        const TimeNs t0 = data->traceStart; // 1000 µs
        QCOMPARE(t0, us(1000));
        const RangeAggregate a = aggregateRange(*data, { t0 + us(5), t0 + us(42) }, Alignment::AsRecorded);
        // gemm: [0,10] overlaps 5 µs, [40,45] overlaps 2 µs.
        const AggregateRow* gemm = row(a, "gemm", true);
        QVERIFY(gemm);
        QCOMPARE(gemm->count, 2u);
        QCOMPARE(gemm->total, us(15));
        QCOMPARE(gemm->inRange, us(7));
        QCOMPARE(gemm->max, us(10));
        QCOMPARE(gemm->mean(), 7500.0);
        const AggregateRow* relu = row(a, "relu", true);
        QVERIFY(relu);
        QCOMPARE(relu->count, 1u);
        QCOMPARE(relu->inRange, us(10));
        QVERIFY(!row(a, "marker", true)); // at 50: outside
        const AggregateRow* mm = row(a, "aten::mm", false);
        QVERIFY(mm);
        QCOMPARE(mm->count, 2u);
        QCOMPARE(mm->total, us(16));
        QCOMPARE(mm->inRange, us(7 + 4));
        QCOMPARE(row(a, "step", false)->inRange, us(37));
        QCOMPARE(a.slices, 6u);
        QCOMPARE(a.ranks, 1);
        // Sorted by time in range, largest first.
        for (std::size_t i = 1; i < a.rows.size(); ++i)
            QVERIFY(a.rows[i - 1].inRange >= a.rows[i].inRange);
    }

    void boundariesAndZeroLength()
    {
        const auto data = TimelineData::build(load(1));
        const TimeNs t0 = data->traceStart;
        // Touching a slice's end or start is not overlapping it.
        RangeAggregate a = aggregateRange(*data, { t0 + us(10), t0 + us(20) }, Alignment::AsRecorded);
        QVERIFY(!row(a, "gemm", true));
        QVERIFY(!row(a, "relu", true));
        // A zero-length slice counts where it starts.
        a = aggregateRange(*data, { t0 + us(50), t0 + us(51) }, Alignment::AsRecorded);
        QCOMPARE(row(a, "marker", true)->count, 1u);
        QCOMPARE(row(a, "marker", true)->inRange, 0);
    }

    void ranksMergeByNameAndFollowAlignment()
    {
        const auto data = TimelineData::build(load(2));
        const TimeNs t0 = data->traceStart;
        // As recorded, rank 1 is 100 µs later: [5, 42] holds rank 0 only.
        RangeAggregate a = aggregateRange(*data, { t0 + us(5), t0 + us(42) }, Alignment::AsRecorded);
        QCOMPARE(row(a, "gemm", true)->count, 2u);
        QCOMPARE(a.ranks, 1);
        // Aligned on their starts both ranks fall in it.
        a = aggregateRange(*data, { t0 + us(5), t0 + us(42) }, Alignment::RankStart);
        QCOMPARE(row(a, "gemm", true)->count, 4u);
        QCOMPARE(row(a, "gemm", true)->inRange, us(14));
        QCOMPARE(a.ranks, 2);
        // Hidden tracks are left out: only GPU streams here.
        a = aggregateRange(*data, { t0 + us(5), t0 + us(42) }, Alignment::RankStart, [&](TrackKey key) {
            return data->trace(key.rank).tracks[key.index].kind == core::TrackKind::GpuStream;
        });
        QVERIFY(!row(a, "aten::mm", false));
        QCOMPARE(row(a, "relu", true)->count, 2u);
    }
};

KS_TEST_MAIN(tst_timeline_range, TimelineRangeTest)
#include "tst_timeline_range.moc"
