// The reader on the real Kineto traces in ../shared/traces (product spec: each
// feature must work on them). Expected numbers come from traces/README.md
// (events, GPU kernels, ranks) and, for exact timestamps, from the token text
// worked out with Python's decimal module (see each value's comment): they are
// independent of this code. Per-phase and per-category counts of every file are
// checked against a Python json/gzip count by tests/tools/check_counts.py.

#include "core/io/store_builder/typed_args.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QDir>
#include <QTest>

using namespace ks::core;

class TestSharedTraces : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void everyFolderIsListed();
    void folders_data();
    void folders();
    void gpuTrackNames();
    void exactTimestamps_data();
    void exactTimestamps();
    void traceBounds();
    void ncclCollectiveArgs();
    void loadOptionsDoNotChangeResults();
    void allFoldersTogether();
    void glooRoundingNestsWithoutOverlap();
};

// moc reads raw string literals as ordinary strings and trips on the JSON
// inside them: fixtures and slot bodies are kept out of its sight.
#ifndef Q_MOC_RUN

namespace {

QString tracesDir()
{
    return QStringLiteral(KS_SHARED_DIR "/traces");
}

Result<TraceSet> loadFolder(const QString& name, const LoadOptions& options = {})
{
    return loadTraceSet({ ks::test::toStd(tracesDir() + u'/' + name) }, options, nullptr, nullptr);
}

using Int64List = QList<qint64>;

std::uint64_t slicesInCategory(const RankTrace& t, std::string_view category)
{
    std::uint64_t n = 0;
    for (std::uint32_t i = 0; i < t.slices.size(); ++i)
        n += t.sliceCategory(i) == category;
    return n;
}

} // namespace

void TestSharedTraces::initTestCase()
{
    if (!QDir(tracesDir()).exists())
        QSKIP(qPrintable(
            QStringLiteral("shared traces not found at %1 (set KS_SHARED_DIR): real-trace tests skipped")
                .arg(tracesDir())));
}

void TestSharedTraces::everyFolderIsListed()
{
    // A new folder in shared/traces must get its expected numbers below.
    const QStringList folders = QDir(tracesDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QCOMPARE(folders.size(), 19);
}

void TestSharedTraces::folders_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<Int64List>("ranks");
    QTest::addColumn<Int64List>("events"); // traces/README.md "events"
    QTest::addColumn<Int64List>("kernels"); // traces/README.md "GPU kernels"
    QTest::addColumn<int>("rankSource");

    const int info = int(RankSource::DistributedInfo);
    QTest::newRow("two_ranks_sampled") << QStringLiteral("two_ranks_sampled") << Int64List { 0, 1 }
                                       << Int64List { 4855, 4720 } << Int64List { 1154, 1104 } << info;
    QTest::newRow("diff_control") << QStringLiteral("diff_control") << Int64List { 3 } << Int64List { 109123 }
                                  << Int64List { 8568 } << info;
    QTest::newRow("diff_test") << QStringLiteral("diff_test") << Int64List { 1 } << Int64List { 105167 }
                               << Int64List { 9876 } << info;
    QTest::newRow("nccl_ns_resolution") << QStringLiteral("nccl_ns_resolution") << Int64List { 0 }
                                        << Int64List { 40573 } << Int64List { 2700 } << info;
    QTest::newRow("ns_resolution") << QStringLiteral("ns_resolution") << Int64List { 0 }
                                   << Int64List { 68692 } << Int64List { 4350 } << info;
    QTest::newRow("critical_path_alexnet") << QStringLiteral("critical_path_alexnet") << Int64List { 0 }
                                           << Int64List { 1408 } << Int64List { 79 } << info;
    QTest::newRow("critical_path_simple_add") << QStringLiteral("critical_path_simple_add") << Int64List { 0 }
                                              << Int64List { 1348 } << Int64List { 79 } << info;
    QTest::newRow("cuda_event_sync") << QStringLiteral("cuda_event_sync") << Int64List { 0 }
                                     << Int64List { 92 } << Int64List { 4 } << info;
    QTest::newRow("cuda_event_sync_multi_stream")
        << QStringLiteral("cuda_event_sync_multi_stream") << Int64List { 0 } << Int64List { 149 }
        << Int64List { 3 } << info;
    QTest::newRow("amd_rocm") << QStringLiteral("amd_rocm") << Int64List { 0 } << Int64List { 220 }
                              << Int64List { 14 } << int(RankSource::FileOrder);
    QTest::newRow("mtia_inference") << QStringLiteral("mtia_inference") << Int64List { 0 }
                                    << Int64List { 16158 } << Int64List { 0 } << int(RankSource::FileName);
    QTest::newRow("cpu_only") << QStringLiteral("cpu_only") << Int64List { 34 } << Int64List { 30 }
                              << Int64List { 0 } << info;
    QTest::newRow("no_gpu_no_rank") << QStringLiteral("no_gpu_no_rank") << Int64List { 0 }
                                    << Int64List { 2467 } << Int64List { 0 } << info;
    QTest::newRow("no_distributed_info")
        << QStringLiteral("no_distributed_info") << Int64List { 0 } << Int64List { 2467 } << Int64List { 0 }
        << int(RankSource::FileOrder);
    // Recorded with PyTorch's legacy exporter (plain JSON, no distributedInfo).
    QTest::newRow("ddp_gloo_2ranks") << QStringLiteral("ddp_gloo_2ranks") << Int64List { 0, 1 }
                                     << Int64List { 923, 924 } << Int64List { 0, 0 }
                                     << int(RankSource::FileName);
    QTest::newRow("rpc_recipe") << QStringLiteral("rpc_recipe") << Int64List { 0 } << Int64List { 12 }
                                << Int64List { 0 } << int(RankSource::FileOrder);
    // TraceLens's test data: the same model on two vendors; events and kernels
    // counted in the JSON (len(traceEvents), cat == "kernel"); no distributedInfo.
    QTest::newRow("h100_qwen05b") << QStringLiteral("h100_qwen05b") << Int64List { 0 } << Int64List { 18221 }
                                  << Int64List { 1465 } << int(RankSource::FileOrder);
    QTest::newRow("mi300_qwen05b") << QStringLiteral("mi300_qwen05b") << Int64List { 0 }
                                   << Int64List { 18090 } << Int64List { 1516 } << int(RankSource::FileOrder);
    // An SGLang decode step profiled while its HIP graph was captured: captured
    // work does not run, so two kernels for 3556 ops (counted as above).
    QTest::newRow("sglang_decode_capture") << QStringLiteral("sglang_decode_capture") << Int64List { 0 }
                                           << Int64List { 61713 } << Int64List { 2 } << info;
}

void TestSharedTraces::folders()
{
    QFETCH(QString, folder);
    QFETCH(Int64List, ranks);
    QFETCH(Int64List, events);
    QFETCH(Int64List, kernels);
    QFETCH(int, rankSource);
    auto r = loadFolder(folder);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    const TraceSet& set = r.value();
    QVERIFY(set.failures.empty());
    QCOMPARE(qsizetype(set.ranks.size()), ranks.size());
    for (qsizetype i = 0; i < ranks.size(); ++i) {
        const RankTrace& t = *set.ranks[std::size_t(i)];
        QCOMPARE(qint64(t.rank), ranks[i]);
        QCOMPARE(int(t.rankSource), rankSource);
        QCOMPARE(qint64(t.counts.events), events[i]);
        QCOMPARE(t.counts.gzip, QString::fromStdString(t.path).endsWith(u".gz"));
        std::uint64_t phaseSum = 0;
        for (auto n : t.counts.byPhase)
            phaseSum += n;
        QCOMPARE(phaseSum, t.counts.events);
        std::uint64_t categorySum = 0;
        for (const auto& [cat, phases] : t.counts.byCategory)
            for (auto n : phases)
                categorySum += n;
        QCOMPARE(categorySum, t.counts.events);
        QCOMPARE(qint64(slicesInCategory(t, "kernel")), kernels[i]);
        // These traces have no B/E: every X event (all have ts, pid, tid) is one slice.
        QCOMPARE(std::uint64_t(t.slices.size()), t.counts.byPhase[std::size_t(Phase::Complete)]);
        QCOMPARE(t.diagnostics.count(DiagnosticKind::MissingField), 0ull);
        QCOMPARE(t.diagnostics.count(DiagnosticKind::WrongFieldType), 0ull);
        // Every slice sits on exactly one track; GPU tracks come first and hold the kernels.
        std::uint64_t onTracks = 0;
        bool cpuSeen = false;
        for (std::uint32_t k = 0; k < t.tracks.size(); ++k) {
            const Track& tr = t.tracks[k];
            onTracks += tr.sliceCount();
            if (tr.kind == TrackKind::CpuThread)
                cpuSeen = true;
            else
                QVERIFY2(!cpuSeen, "a GPU track after a CPU track");
            QCOMPARE(t.slicesInRange(TrackId { k }, t.startNs, t.endNs).size(), std::size_t(tr.sliceCount()));
        }
        QCOMPARE(onTracks, std::uint64_t(t.slices.size()));
        for (std::uint32_t s = 0; s < t.slices.size(); ++s)
            if (t.sliceCategory(s) == "kernel" && t.tracks[t.trackOf(s).value].kind != TrackKind::GpuStream)
                QFAIL(qPrintable(QStringLiteral("kernel slice %1 on a CPU track").arg(s)));
        // Each launch flow pairs one start with one end ("ac2g", or "async_cpu_to_gpu"
        // in older Kineto): never more launch-flow links than flow starts.
        std::size_t flowLinks = 0;
        for (auto kind : t.links.kind)
            flowLinks += kind == LinkKind::LaunchFlow;
        const std::uint64_t flowStarts = ks::test::categoryCount(t, "ac2g", Phase::FlowStart)
            + ks::test::categoryCount(t, "async_cpu_to_gpu", Phase::FlowStart);
        QVERIFY(flowLinks <= flowStarts);
        if (flowStarts > 0)
            QVERIFY2(flowLinks > 0, "launch flows in the file but none linked");
        QVERIFY(t.startNs <= t.endNs);
    }
}

// Kineto names GPU tracks "stream N " (with a trailing space): shown as "stream N".
void TestSharedTraces::gpuTrackNames()
{
    auto r = loadFolder(QStringLiteral("two_ranks_sampled"));
    QVERIFY(r.ok());
    const RankTrace& t = *r.value().ranks[0];
    int gpu = 0;
    for (const Track& tr : t.tracks) {
        if (tr.kind != TrackKind::GpuStream)
            continue;
        ++gpu;
        QCOMPARE(ks::test::bytes(t.name(tr.name)), ks::test::bytes("stream " + std::to_string(tr.stream)));
    }
    QVERIFY(gpu > 0);
}

void TestSharedTraces::exactTimestamps_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<int>("eventIndex"); // position in traceEvents
    QTest::addColumn<qint64>("startNs");
    QTest::addColumn<qint64>("durNs");
    // Derived in Python: json.loads(text, parse_float=decimal.Decimal), then
    // int(ev["ts"] * 1000) and int(ev["dur"] * 1000) on the exact decimal
    // token ("ts": 1712195495519689.047 -> 1712195495519689047). Through a
    // double these epoch-scale values would be off by up to ~125 ns.
    const QString ns = QStringLiteral("ns_resolution");
    QTest::newRow("ns: first cpu_op") << ns << 0 << Q_INT64_C(1712195495519689047) << Q_INT64_C(63813);
    QTest::newRow("ns: aten::slice") << ns << 16226 << Q_INT64_C(1712195495539596119) << Q_INT64_C(776);
    QTest::newRow("ns: aten::clamp_min_")
        << ns << 24368 << Q_INT64_C(1712195495820905193) << Q_INT64_C(10673);
    QTest::newRow("ns: first kernel") << ns << 25790 << Q_INT64_C(1712195495505582988) << Q_INT64_C(4928);
    QTest::newRow("ns: last kernel") << ns << 68598 << Q_INT64_C(1712195495985358440) << Q_INT64_C(253727);
    QTest::newRow("ns: profiler span (string pid)")
        << ns << 68688 << Q_INT64_C(1712195495406752797) << Q_INT64_C(578888534);
    QTest::newRow("nccl: allreduce kernel")
        << QStringLiteral("nccl_ns_resolution") << 16818 << Q_INT64_C(4458677009853422) << Q_INT64_C(2636669);
}

void TestSharedTraces::exactTimestamps()
{
    QFETCH(QString, folder);
    QFETCH(int, eventIndex);
    QFETCH(qint64, startNs);
    QFETCH(qint64, durNs);
    auto r = loadFolder(folder);
    QVERIFY(r.ok());
    const RankTrace& t = *r.value().ranks[0];
    const auto slice = ks::test::sliceOfEvent(t, std::uint32_t(eventIndex));
    QVERIFY(slice.has_value());
    QCOMPARE(qint64(t.slices.start[*slice]), startNs);
    QCOMPARE(qint64(t.slices.duration(*slice)), durNs);
}

void TestSharedTraces::traceBounds()
{
    // Min ts and max ts + dur over X/i/C events, same Python decimal derivation.
    auto ns = loadFolder(QStringLiteral("ns_resolution"));
    QVERIFY(ns.ok());
    QCOMPARE(ns.value().ranks[0]->startNs, TimeNs(1712195495406752797));
    QCOMPARE(ns.value().ranks[0]->endNs, TimeNs(1712195496004644183));
    auto nccl = loadFolder(QStringLiteral("nccl_ns_resolution"));
    QVERIFY(nccl.ok());
    QCOMPARE(nccl.value().ranks[0]->startNs, TimeNs(4458676388068751));
    QCOMPARE(nccl.value().ranks[0]->endNs, TimeNs(4458677117099727));
}

void TestSharedTraces::ncclCollectiveArgs()
{
    // traceEvents[16818] of nccl_data.json.gz, args as in the file.
    auto r = loadFolder(QStringLiteral("nccl_ns_resolution"));
    QVERIFY(r.ok());
    const RankTrace& t = *r.value().ranks[0];
    const auto slice = ks::test::sliceOfEvent(t, 16818);
    QVERIFY(slice.has_value());
    QCOMPARE(t.stream(*slice), std::int64_t(40));
    QCOMPARE(t.correlation(*slice), std::int64_t(60047));
    QCOMPARE(rereadExternalId(t, *slice), std::int64_t(12945));
    const std::uint32_t x = t.extraRow(*slice);
    QVERIFY(x != kNoRow);
    QCOMPARE(ks::test::bytes(t.name(t.extra.collectiveName[x])), ks::test::bytes("allreduce"));
    QCOMPARE(t.extra.inMsgNelems[x], std::int64_t(6637568));
    QCOMPARE(t.extra.outMsgNelems[x], std::int64_t(6637568));
    QCOMPARE(t.extra.groupSize[x], std::int64_t(2));
    QCOMPARE(ks::test::bytes(t.name(t.extra.dtype[x])), ks::test::bytes("Float"));
    QCOMPARE(ks::test::bytes(t.name(t.extra.processGroupName[x])), ks::test::bytes("0"));
    const auto raw = sliceArgs(t, *slice);
    QVERIFY(raw.ok());
    QVERIFY(raw.value().find(R"("Process Group Ranks": "[0, 1]")") != std::string::npos);
    QCOMPARE(ks::test::bytes(t.name(t.extra.processGroupRanks[x])), ks::test::bytes("[0, 1]"));
    // The kernel is linked to its launch.
    QCOMPARE(t.linksTo(*slice).size(), std::size_t(1));
}

// Chunking and inflate engine do not change what is read from a real file.
void TestSharedTraces::loadOptionsDoNotChangeResults()
{
    auto reference = loadFolder(QStringLiteral("ns_resolution"));
    QVERIFY(reference.ok());
    const std::string expected = ks::test::fingerprint(*reference.value().ranks[0]);
    for (bool zlib : { true, false }) {
        LoadOptions options;
        options.chunkBytes = 4096;
        options.preferZlib = zlib;
        auto r = loadFolder(QStringLiteral("ns_resolution"), options);
        QVERIFY(r.ok());
        QVERIFY2(ks::test::fingerprint(*r.value().ranks[0]) == expected,
            zlib ? "zlib, 4 KiB chunks" : "auto, 4 KiB chunks");
    }
}

void TestSharedTraces::allFoldersTogether()
{
    // Everything opened at once: 21 files, sorted by rank, all loaded.
    std::vector<std::string> paths;
    for (const QString& f : QDir(tracesDir()).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        paths.push_back(ks::test::toStd(tracesDir() + u'/' + f));
    auto r = loadTraceSet(paths, {}, nullptr, nullptr);
    QVERIFY(r.ok());
    QCOMPARE(r.value().ranks.size(), std::size_t(21));
    QVERIFY(r.value().failures.empty());
    for (std::size_t i = 1; i < r.value().ranks.size(); ++i)
        QVERIFY(r.value().ranks[i - 1]->rank <= r.value().ranks[i]->rank);
    QVERIFY(r.value().folderDiagnostics.count(DiagnosticKind::DuplicateRank) > 0);
}

void TestSharedTraces::glooRoundingNestsWithoutOverlap()
{
    // Integer-µs rounding puts children up to 1 µs past their parent's end
    // (traces/README.md): nested and noted, never laned as overlaps.
    auto r = loadFolder(QStringLiteral("ddp_gloo_2ranks"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    for (const auto& rank : r.value().ranks) {
        const RankTrace& t = *rank;
        QCOMPARE(t.diagnostics.count(DiagnosticKind::OverlappingSlices), 0ull);
        QVERIFY(t.diagnostics.count(DiagnosticKind::RoundedNesting) > 0);
        QCOMPARE(t.diagnostics.anomalies(), 0ull);
        std::uint64_t rounded = 0;
        for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
            QVERIFY(!(t.slices.flags[i] & kSliceOverflowLane));
            rounded += (t.slices.flags[i] & kSliceRoundedNesting) != 0;
        }
        QCOMPARE(rounded, t.diagnostics.count(DiagnosticKind::RoundedNesting));
        for (const Track& track : t.tracks)
            QCOMPARE(track.levelCount(), track.nestingLevels);
    }
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_shared_traces, TestSharedTraces)
#include "tst_shared_traces.moc"
