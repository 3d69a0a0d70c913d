// Track grouping (T1) on the shared two-rank trace: rank groups, GPU streams
// first with their queue length right under them, then the GPU counters, CPU
// threads and host counters; hide, pin, reorder and collapse.
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "widgets/timeline/model/counter_track.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/model/track_layout.h"

#include <QDir>
#include <QFileInfo>
#include <QTest>

using namespace ks;
using namespace ks::widgets;

class TimelineLayoutTest : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const TimelineData> m_data;

    std::vector<TimelineRow> rowsOfRank(const TrackLayout& layout, int rank) const
    {
        std::vector<TimelineRow> out;
        for (const TimelineRow& row : layout.rows())
            if (row.rank == rank && !row.pinned)
                out.push_back(row);
        return out;
    }

private slots:

    void initTestCase()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QFileInfo::exists(folder))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        auto r = core::loadTraceSet({ folder.toStdString() }, {}, nullptr, nullptr);
        QVERIFY(r);
        auto set = std::make_shared<const core::TraceSet>(std::move(r).value());
        QCOMPARE(set->ranks.size(), std::size_t(2));
        auto data = TimelineData::build(set);
        std::vector<CounterTracks> extra;
        for (int rank = 0; rank < 2; ++rank)
            extra.push_back(buildAnalysisCounters(*set, rank));
        QVERIFY(!extra[0].empty());
        m_data = data->withAnalysisCounters(std::move(extra));
        QVERIFY(m_data->version > data->version);
    }

    void ranksGroupTheirTracks()
    {
        TimelineViewState state;
        TrackLayout layout;
        layout.build(*m_data, state);
        const auto& rows = layout.rows();
        QCOMPARE(rows.front().kind, RowKind::RankHeader);
        QCOMPARE(rows.front().rank, 0);
        int headers = 0;
        int y = 0;
        for (const TimelineRow& row : rows) {
            QCOMPARE(row.y, y); // stacked without gaps
            y += row.height;
            headers += row.kind == RowKind::RankHeader ? 1 : 0;
        }
        QCOMPARE(headers, 2);
        QCOMPARE(layout.contentHeight(), y);
        // Every track and counter of each rank is shown once.
        for (int r = 0; r < 2; ++r) {
            const auto own = rowsOfRank(layout, r);
            QCOMPARE(own.size(), 1 + m_data->trace(r).tracks.size() + m_data->rankCounters(r).size());
            QCOMPARE(own.front().kind, RowKind::RankHeader);
        }
    }

    void gpuStreamsComeFirstWithTheirQueueLength()
    {
        TimelineViewState state;
        TrackLayout layout;
        layout.build(*m_data, state);
        for (int r = 0; r < 2; ++r) {
            const core::RankTrace& t = m_data->trace(r);
            const CounterTracks& counters = m_data->rankCounters(r);
            const auto own = rowsOfRank(layout, r);
            bool seenCpu = false;
            std::int64_t lastStream = -1;
            int gpuRows = 0;
            for (std::size_t i = 1; i < own.size(); ++i) {
                const TimelineRow& row = own[i];
                if (row.kind == RowKind::Slices) {
                    const core::Track& track = t.tracks[row.index];
                    const QString name = m_data->rank(r).trackNames[row.index];
                    if (track.kind == core::TrackKind::GpuStream) {
                        QVERIFY2(!seenCpu, "a GPU stream after a CPU thread");
                        QVERIFY2(name.startsWith(QStringLiteral("stream ")), qPrintable(name));
                        QCOMPARE(row.lanes, std::max<std::uint32_t>(1, track.levelCount()));
                        lastStream = track.stream;
                        ++gpuRows;
                    } else {
                        seenCpu = true;
                        QVERIFY2(name.startsWith(QStringLiteral("thread ")), qPrintable(name));
                    }
                } else if (row.kind == RowKind::Counter && counters[row.index].stream >= 0) {
                    // A queue length and an est. SM efficiency sit right under their own stream.
                    QCOMPARE(counters[row.index].stream, lastStream);
                    const QString& name = counters[row.index].name;
                    QVERIFY2(name.startsWith(QStringLiteral("Queue length"))
                            || name.startsWith(QStringLiteral("Est. SM efficiency")),
                        qPrintable(name));
                    QVERIFY(!seenCpu);
                }
            }
            QVERIFY(gpuRows >= 1);
            QVERIFY(seenCpu);
        }
    }

    void countersOfEveryKind()
    {
        QStringList names;
        for (const CounterTrack& c : m_data->rankCounters(0))
            names.append(c.name);
        const QString all = names.join(QStringLiteral(", "));
        QVERIFY2(names.filter(QStringLiteral("Queue length")).size() >= 1, qPrintable(all));
        QVERIFY2(names.filter(QStringLiteral("bandwidth")).size() >= 1, qPrintable(all));
        for (const CounterTrack& c : m_data->rankCounters(0)) {
            QVERIFY(!c.ts.empty());
            QVERIFY(std::is_sorted(c.ts.begin(), c.ts.end()));
            QVERIFY(c.maxValue >= c.minValue);
        }
    }

    void gpuMemoryFromAllocatorEvents()
    {
        // The H100 recording in tests/data has [memory] allocator instants.
        const QString folder = QStringLiteral(KS_TEST_DATA_DIR "/recorded_h100");
        auto r = core::loadTraceSet({ folder.toStdString() }, {}, nullptr, nullptr);
        QVERIFY(r);
        const core::RankTrace& rank = *r.value().ranks.front();
        QVERIFY(rank.memory.size() > 0);
        const CounterTracks counters = buildTraceCounters(rank);
        const auto gpu = std::find_if(counters.begin(), counters.end(), [](const CounterTrack& c) {
            return c.name.startsWith(QStringLiteral("GPU ")) && c.unit == QStringLiteral("B");
        });
        QVERIFY(gpu != counters.end());
        QVERIFY(gpu->maxValue > 0);
        // The allocator's own total where the event has it.
        std::size_t i = 0;
        while (i < rank.memory.size() && (rank.memory.deviceType[i] < 1 || rank.memory.totalAllocated[i] < 0))
            ++i;
        QVERIFY(i < rank.memory.size());
        const std::ptrdiff_t at = gpu->pointAtOrBefore(rank.memory.ts[i]);
        QVERIFY(at >= 0);
        QVERIFY(std::find(
                    gpu->value.begin(), gpu->value.end(), static_cast<double>(rank.memory.totalAllocated[i]))
            != gpu->value.end());
    }

    void collapseHidePinReorder()
    {
        TimelineViewState state;
        TrackLayout layout;
        layout.build(*m_data, state);
        const std::size_t all = layout.rows().size();
        const std::size_t rank0 = rowsOfRank(layout, 0).size();

        state.setCollapsed(0, true);
        layout.build(*m_data, state);
        QCOMPARE(layout.rows().size(), all - rank0 + 1);
        state.setCollapsed(0, false);
        layout.build(*m_data, state);
        QCOMPARE(layout.rows().size(), all);

        const TimelineRow second = rowsOfRank(layout, 0)[2];
        state.setHidden(second.key(), true);
        layout.build(*m_data, state);
        QCOMPARE(layout.rows().size(), all - 1);
        QCOMPARE(layout.findRow(second.key()), -1);
        QCOMPARE(state.hiddenCount(0), 1);
        state.showAllTracks(0);
        QCOMPARE(state.hiddenCount(0), 0);

        const TimelineRow last = rowsOfRank(layout, 1).back();
        state.setPinned(last.key(), true);
        layout.build(*m_data, state);
        const TimelineRow& top = layout.rows().front();
        QVERIFY(top.pinned);
        QCOMPARE(top.key(), last.key());
        QCOMPARE(top.y, 0);
        QCOMPARE(layout.pinnedHeight(), top.height);
        QCOMPARE(layout.rowAt(true, 1), 0);
        QCOMPARE(layout.rows().size(), all); // moved, not copied
        state.setPinned(last.key(), false);

        // Move the first CPU thread of rank 1 to the top of its rank.
        QList<quint64> order = TrackLayout::effectiveOrder(*m_data, state, 1);
        const auto firstCpu = std::find_if(order.begin(), order.end(), [&](quint64 k) {
            const TrackKey key = TrackKey::unpack(k);
            return key.kind == RowKind::Slices
                && m_data->trace(1).tracks[key.index].kind == core::TrackKind::CpuThread;
        });
        QVERIFY(firstCpu != order.end());
        const quint64 moved = *firstCpu;
        order.move(firstCpu - order.begin(), 0);
        state.setTrackOrder(1, order);
        layout.build(*m_data, state);
        QCOMPARE(rowsOfRank(layout, 1)[1].key().packed(), moved);
    }

    void keysSurviveThePacking()
    {
        const TrackKey key { 3, RowKind::Counter, 12345 };
        QCOMPARE(TrackKey::unpack(key.packed()), key);
        QVERIFY(TrackKey({ 3, RowKind::Slices, 12345 }).packed() != key.packed());
    }
};

KS_TEST_MAIN(tst_timeline_layout, TimelineLayoutTest)
#include "tst_timeline_layout.moc"
