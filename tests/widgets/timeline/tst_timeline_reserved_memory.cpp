// The timeline's reserved-memory track: a device whose [memory] events carry
// `Total Reserved` gets "GPU N memory reserved" right under its allocated
// track, with the events' own totals; a device without it (an old trace) or
// whose reserved total never leaves 0 (the CPU allocator) gets none.
#include "core/model/trace_set.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/timeline/model/counter_track.h"

#include <QTest>

#include <algorithm>

using namespace ks;
using namespace ks::widgets;

namespace {

const CounterTrack* trackNamed(const CounterTracks& tracks, const QString& name)
{
    const auto it =
        std::find_if(tracks.begin(), tracks.end(), [&name](const CounterTrack& t) { return t.name == name; });
    return it == tracks.end() ? nullptr : &*it;
}

qsizetype indexOf(const CounterTracks& tracks, const QString& name)
{
    for (qsizetype i = 0; i < qsizetype(tracks.size()); ++i) {
        if (tracks[std::size_t(i)].name == name)
            return i;
    }
    return -1;
}

// Two GPU 0 allocations and a free, with or without the allocator's totals.
QByteArray memoryTrace(bool withReserved)
{
    const QByteArray reserved = withReserved ? QByteArray(R"("Total Reserved": 4194304, )") : QByteArray();
    QByteArray events;
    const int bytes[] = { 1024, 2048, -1024 };
    const int totals[] = { 1024, 3072, 2048 };
    for (int i = 0; i < 3; ++i) {
        if (i > 0)
            events += ',';
        events += R"({"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1, "ts": )"
            + QByteArray::number(1000 + i * 10) + R"(, "args": {"Device Type": 1, "Device Id": 0, "Addr": )"
            + QByteArray::number(4096 + (i == 2 ? 0 : i) * 4096) + R"(, "Bytes": )"
            + QByteArray::number(bytes[i]) + R"(, "Total Allocated": )" + QByteArray::number(totals[i]) + ", "
            + reserved + R"("Stream": -1}})";
    }
    return R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1,)"
           R"( "ts": 995, "dur": 40},)"
        + events + "]}";
}

} // namespace

class TestTimelineReservedMemory : public QObject
{
    Q_OBJECT

private slots:

    void sharedTraceHasReservedTrack()
    {
        const auto set = test::loadSharedTraces("h100_qwen05b");
        if (!set)
            QSKIP("../shared/traces/h100_qwen05b is absent");
        QCOMPARE(set->ranks.size(), std::size_t(1));
        const core::RankTrace& rank = *set->ranks.front();
        const CounterTracks tracks = buildTraceCounters(rank);
        const CounterTrack* reserved = trackNamed(tracks, QStringLiteral("GPU 0 memory reserved"));
        QVERIFY(reserved);
        QCOMPARE(reserved->unit, QStringLiteral("B"));
        QCOMPARE(reserved->placement, CounterTrack::Placement::Gpu);
        // Right under the allocated curve of the same device.
        QCOMPARE(indexOf(tracks, QStringLiteral("GPU 0 memory reserved")),
            indexOf(tracks, QStringLiteral("GPU 0 memory allocated")) + 1);
        // The events' own totals, one point per GPU [memory] event.
        const core::MemoryEventTable& m = rank.memory;
        std::size_t gpuEvents = 0;
        std::int64_t maxReserved = 0;
        for (std::size_t i = 0; i < m.size(); ++i) {
            if (m.deviceType[i] == 1 && m.deviceId[i] == 0) {
                ++gpuEvents;
                maxReserved = std::max(maxReserved, m.totalReserved[i]);
            }
        }
        QCOMPARE(reserved->size(), gpuEvents);
        QCOMPARE(reserved->maxValue, double(maxReserved));
        QCOMPARE(maxReserved, std::int64_t(2629828608)); // the trace's largest Total Reserved
        // The CPU's reserved total is 0 throughout: no track for it.
        QVERIFY(trackNamed(tracks, QStringLiteral("Host memory allocated")));
        QVERIFY(!trackNamed(tracks, QStringLiteral("Host memory reserved")));
    }

    void traceWithoutReservedHasNoTrack()
    {
        const auto set = test::loadDocument(memoryTrace(false));
        QVERIFY(set && set->ranks.size() == 1);
        const CounterTracks tracks = buildTraceCounters(*set->ranks.front());
        QVERIFY(trackNamed(tracks, QStringLiteral("GPU 0 memory allocated")));
        QVERIFY(!trackNamed(tracks, QStringLiteral("GPU 0 memory reserved")));
    }

    void inlineTraceWithReserved()
    {
        const auto set = test::loadDocument(memoryTrace(true));
        QVERIFY(set && set->ranks.size() == 1);
        const CounterTracks tracks = buildTraceCounters(*set->ranks.front());
        const CounterTrack* reserved = trackNamed(tracks, QStringLiteral("GPU 0 memory reserved"));
        QVERIFY(reserved);
        QCOMPARE(reserved->size(), std::size_t(3));
        QCOMPARE(reserved->value.front(), 4194304.0);
        QCOMPARE(reserved->maxValue, 4194304.0);
    }
};

KS_TEST_MAIN(tst_timeline_reserved_memory, TestTimelineReservedMemory)
#include "tst_timeline_reserved_memory.moc"
