// T7: the timeline's analysis counters (queue length per stream, memory
// bandwidth per copy kind) are computed straight from the rank; they must be
// the very series of the core's analyses in default mode. The est. SM efficiency
// per stream (the core's own series, tst_kernel_occupancy) sits under its stream.
#include "core/analysis/frame/analysis_options.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/hta/memory_bandwidth.h"
#include "core/analysis/hta/queue_length.h"
#include "core/io/trace_set_loader.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/counter_track.h"
#include "widgets/timeline/model/draw_list.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace ks;
using namespace ks::widgets;

namespace {

// The series of an analysis table, one per key, as the timeline draws them:
// absolute ns and the value at each point.
using Series = std::map<QString, std::pair<std::vector<TimeNs>, std::vector<double>>>;

Series fromTable(const core::AnalysisOutput& out, TimeNs minTs, const char* keyColumn,
    const char* valueColumn, const QString& prefix, const QString& suffix)
{
    Series series;
    if (!out.ok || out.result.kind != core::HtaResult::Kind::Dict || out.result.entries.empty())
        return series;
    const core::Table& t = out.result.entries.front().second.frame;
    const std::size_t ts = t.columnIndex("ts");
    const std::size_t key = t.columnIndex(keyColumn);
    const std::size_t value = t.columnIndex(valueColumn);
    for (const auto& row : t.rows) {
        TimeNs ns = 0;
        const core::Cell time = row[ts];
        if (const auto* i = std::get_if<std::int64_t>(&time))
            ns = minTs + *i * 1000;
        else
            ns = minTs + static_cast<TimeNs>(std::llround(std::get<double>(time) * 1000.0));
        auto& s = series[prefix + toQString(core::cellAsText(row[key])) + suffix];
        s.first.push_back(ns);
        const double v = *core::cellAsDouble(row[value]);
        s.second.push_back(std::abs(v) < 1e-9 ? 0.0 : v);
    }
    return series;
}

void compareWithAnalyses(const core::TraceSet& set)
{
    core::AnalysisOptions options;
    options.mode = core::AnalysisMode::Default;
    for (int r = 0; r < static_cast<int>(set.ranks.size()); ++r) {
        core::TraceSet one;
        one.ranks = { set.ranks[static_cast<std::size_t>(r)] };
        auto frames = core::buildFrames(one, options);
        QVERIFY(frames);
        const TimeNs minTs = frames.value().minTs;
        Series expected = fromTable(core::queueLengthTimeSeries(frames.value(), options), minTs, "stream",
            "queue_length", QStringLiteral("Queue length · stream "), QString());
        const Series bw = fromTable(core::memoryBwTimeSeries(frames.value(), options), minTs, "name",
            "memory_bw_gbps", QString(), QStringLiteral(" bandwidth"));
        expected.insert(bw.begin(), bw.end());

        CounterTracks tracks = buildAnalysisCounters(set, r);
        // No HTA analysis has the est. SM efficiency: its series is checked in the core.
        std::erase_if(tracks, [](const CounterTrack& t) {
            return t.name.contains(QStringLiteral("est. SM efficiency"), Qt::CaseInsensitive);
        });
        QCOMPARE(tracks.size(), expected.size());
        for (const CounterTrack& track : tracks) {
            QVERIFY2(expected.count(track.name), qPrintable(track.name));
            const auto& [ts, values] = expected.at(track.name);
            QCOMPARE(track.ts, ts);
            QCOMPARE(track.value.size(), values.size());
            for (std::size_t i = 0; i < values.size(); ++i)
                QVERIFY2(std::abs(track.value[i] - values[i]) <= 1e-9 * std::max(1.0, std::abs(values[i])),
                    qPrintable(QStringLiteral("%1 point %2: %3 vs %4")
                                   .arg(track.name)
                                   .arg(i)
                                   .arg(track.value[i])
                                   .arg(values[i])));
        }
    }
}

} // namespace

class TimelineCountersTest : public QObject
{
    Q_OBJECT

private slots:

    void tinyTraceQueue()
    {
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank0.json")), test::tinyTrace(0, 1)));
        auto set = test::loadSet(dir.path());
        QVERIFY(set);
        const CounterTracks tracks = buildAnalysisCounters(*set, 0);
        QCOMPARE(tracks.size(), std::size_t(1));
        QCOMPARE(tracks[0].name, QStringLiteral("Queue length · stream 7"));
        QCOMPARE(tracks[0].stream, std::int64_t(7));
        // +1 at the launch (1005 µs), back to 0 when the kernel starts (1012 µs).
        QCOMPARE(tracks[0].ts, (std::vector<TimeNs> { 1'005'000, 1'012'000 }));
        QCOMPARE(tracks[0].value, (std::vector<double> { 1.0, 0.0 }));
        QVERIFY(buildAnalysisCounters(*set, 5).empty());
        compareWithAnalyses(*set);
    }

    void smEfficiencyUnderItsStream()
    {
        // Kernel a: 0.5 blocks per SM (50 %); kernel b: no args (no sample, not 0).
        const QByteArray trace = R"({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 1000, "dur": 10,
   "args": {"stream": 7, "correlation": 1, "blocks per SM": 0.5, "est. achieved occupancy %": 20}},
  {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 1020, "dur": 10,
   "args": {"stream": 7, "correlation": 2}}
 ]})";
        QTemporaryDir dir;
        QVERIFY(test::writeFile(dir.filePath(QStringLiteral("rank0.json")), trace));
        auto set = test::loadSet(dir.path());
        QVERIFY(set);
        const CounterTracks tracks = buildAnalysisCounters(*set, 0);
        const auto it = std::find_if(tracks.begin(), tracks.end(),
            [](const CounterTrack& t) { return t.name == QStringLiteral("Est. SM efficiency · stream 7"); });
        QVERIFY(it != tracks.end());
        QCOMPARE(it->stream, std::int64_t(7)); // drawn right under stream 7
        QCOMPARE(it->unit, QStringLiteral("%"));
        QCOMPARE(it->ts, (std::vector<TimeNs> { 1'000'000, 1'010'000, 1'020'000, 1'030'000 }));
        QCOMPARE(it->value[0], 50.0);
        QCOMPARE(it->value[1], 0.0);
        QVERIFY(std::isnan(it->value[2]));
        QCOMPARE(it->value[3], 0.0);
        QCOMPARE(it->maxValue, 50.0); // the NaN stretch leaves the scale alone
        QCOMPARE(it->formatValue(it->value[2]), QStringLiteral("no data"));
        // The draw list keeps the NaN stretch for the renderer to leave empty.
        const auto items = buildCounterDrawList(*it, { 1'000'000, 1'040'000 }, 400.0);
        QVERIFY(std::any_of(
            items.begin(), items.end(), [](const CounterDrawItem& i) { return std::isnan(i.hi); }));
    }

    void sharedTracesMatchTheAnalyses_data()
    {
        QTest::addColumn<QString>("folder");
        for (const char* name :
            { "two_ranks_sampled", "cuda_event_sync_multi_stream", "amd_rocm", "nccl_ns_resolution" })
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void sharedTracesMatchTheAnalyses()
    {
        QFETCH(QString, folder);
        const QString path = QStringLiteral(KS_SHARED_DIR "/traces/") + folder;
        if (!QDir(path).exists())
            QSKIP("The shared traces are absent");
        auto set = test::loadSet(path);
        QVERIFY(set);
        compareWithAnalyses(*set);
    }
};

KS_TEST_MAIN(tst_timeline_counters, TimelineCountersTest)
#include "tst_timeline_counters.moc"
