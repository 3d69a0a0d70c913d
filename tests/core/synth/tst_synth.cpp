// `kinetoscope-cli synth` core: synthetic multi-rank traces are valid JSON with
// the structure Kineto writes (and HTA needs), sized as asked, deterministic,
// consistent across ranks, and readable by our reader; `--from` scaling keeps
// every id unique across copies.

#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "core/synth/synthetic_trace_generator.h"
#include "core/synth/trace_input.h"
#include "core/synth/trace_scaler.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <simdjson.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ks::core;

class TestSynth : public QObject
{
    Q_OBJECT

private slots:
    void twoRanksHaveKinetoStructure();
    void sizeIsNearTarget();
    void sameSeedSameBytes();
    void gzipHoldsTheSameJson();
    void collectivesAgreeAcrossRanks();
    void readerLoadsWithoutAnomalies();
    void stragglersComputeLongerOthersWait();
    void invalidOptionsAreErrors();
    void scalingKeepsIdsUnique();
    void scalingSharedTrace();
    void scalingBadInputs();
};

#ifndef Q_MOC_RUN

namespace {

constexpr std::uint64_t kSmall = 1'500'000;

SynthOptions smallJob(const QString& dir, int ranks = 2)
{
    SynthOptions options;
    options.ranks = ranks;
    options.targetBytes = kSmall;
    options.outDir = dir.toStdString();
    options.seed = 42;
    return options;
}

std::string readAll(const std::string& path)
{
    auto text = readTraceText(path);
    return text ? std::string(text.value().data(), text.value().size()) : std::string();
}

// Field accessors that take the lookup result, so a missing field gives the
// fallback instead of an exception.
using Lookup = simdjson::simdjson_result<simdjson::dom::element>;

std::string_view str(Lookup e)
{
    std::string_view s;
    return e.get(s) ? std::string_view() : s;
}

std::int64_t integer(Lookup e, std::int64_t fallback = -1)
{
    std::int64_t v = fallback;
    return e.get(v) ? fallback : v;
}

double number(Lookup e)
{
    double v = 0;
    return e.get(v) ? 0.0 : v;
}

// What the tests check, gathered in one pass over traceEvents.
struct Census
{
    std::size_t events = 0;
    std::map<std::string, std::size_t> byPhase;
    std::map<std::string, std::size_t> byCategory;
    std::map<std::int64_t, double> launchTs; // correlation -> cuda_runtime ts
    std::vector<std::pair<std::int64_t, double>> deviceWork; // correlation, ts (kernel/memcpy/memset/sync)
    std::map<std::pair<std::string, std::int64_t>, std::pair<int, int>> flows; // (cat, id) -> (#s, #f)
    std::vector<std::int64_t> externalIds, evIdx, pythonIds, correlations;
    std::set<std::string> steps, gpuSteps, metadataNames;
    std::vector<double> ncclEnds;
    std::map<std::string, std::vector<double>> computeKernels; // name -> durations (µs), NCCL excluded
    double ncclKernelUs = 0;
    std::size_t ncclWithArgs = 0;
    std::size_t memoryWithArgs = 0;
};

Census census(simdjson::dom::array events)
{
    Census c;
    for (simdjson::dom::element e : events) {
        ++c.events;
        const std::string ph(str(e["ph"]));
        const std::string cat(str(e["cat"]));
        const std::string name(str(e["name"]));
        ++c.byPhase[ph];
        ++c.byCategory[cat];
        const Lookup args = e["args"];
        if (ph == "M") {
            c.metadataNames.insert(name);
        } else if (ph == "s" || ph == "f") {
            auto& pair = c.flows[{ cat, integer(e["id"]) }];
            (ph == "s" ? pair.first : pair.second)++;
        } else if (cat == "cuda_runtime") {
            c.launchTs[integer(args["correlation"])] = number(e["ts"]);
            c.correlations.push_back(integer(args["correlation"]));
        } else if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "cuda_sync") {
            c.deviceWork.emplace_back(integer(args["correlation"]), number(e["ts"]));
            if (cat == "kernel" && name.rfind("nccl", 0) == 0) {
                c.ncclKernelUs += number(e["dur"]);
            } else if (cat == "kernel") {
                c.computeKernels[name].push_back(number(e["dur"]));
            }
            if (name.rfind("ncclDevKernel_AllReduce", 0) == 0) {
                c.ncclEnds.push_back(number(e["ts"]) + number(e["dur"]));
                c.ncclWithArgs +=
                    str(args["Collective name"]) == "allreduce" && integer(args["Group size"]) > 0;
            }
        } else if (cat == "cpu_op" || cat == "user_annotation" || cat == "python_function") {
            if (cat != "python_function")
                c.externalIds.push_back(integer(args["External id"]));
            else
                c.pythonIds.push_back(integer(args["Python id"]));
            c.evIdx.push_back(integer(args["Ev Idx"]));
            if (name.rfind("ProfilerStep#", 0) == 0)
                c.steps.insert(name);
        } else if (cat == "gpu_user_annotation" && name.rfind("ProfilerStep#", 0) == 0) {
            c.gpuSteps.insert(name);
        } else if (name == "[memory]") {
            c.memoryWithArgs +=
                !args["Total Allocated"].error() && !args["Bytes"].error() && !args["Addr"].error();
        }
    }
    return c;
}

// Device events whose launch is in the file.
std::size_t linked(const Census& c)
{
    std::size_t n = 0;
    for (const auto& work : c.deviceWork)
        n += c.launchTs.count(work.first);
    return n;
}

template <typename T>
bool allUnique(const std::vector<T>& values)
{
    return std::set<T>(values.begin(), values.end()).size() == values.size();
}

} // namespace

void TestSynth::twoRanksHaveKinetoStructure()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto files = generateSyntheticTraces(smallJob(dir.path()));
    QVERIFY2(files.ok(), files.ok() ? "" : files.error().describe().c_str());
    QCOMPARE(files.value().size(), std::size_t(2));

    for (int rank = 0; rank < 2; ++rank) {
        const WrittenFile& file = files.value()[static_cast<std::size_t>(rank)];
        QCOMPARE(QString::fromStdString(file.path),
            dir.filePath(QStringLiteral("rank-%1.pt.trace.json").arg(rank)));
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        QVERIFY(!parser.load(file.path).get(doc));

        QCOMPARE(integer(doc["schemaVersion"]), 1);
        QCOMPARE(str(doc["displayTimeUnit"]), std::string_view("ms"));
        QVERIFY(!doc["baseTimeNanoseconds"].error());
        QVERIFY(!str(doc["traceName"]).empty());
        simdjson::dom::array devices;
        QVERIFY(!doc["deviceProperties"].get(devices));
        QVERIFY(devices.size() >= 1);
        for (const char* key : { "id", "name", "totalGlobalMem", "computeMajor", "computeMinor",
                 "maxThreadsPerBlock", "numSms" })
            QVERIFY2(!devices.at(0)[key].error(), key);
        const auto info = doc["distributedInfo"];
        QCOMPARE(str(info["backend"]), std::string_view("nccl"));
        QCOMPARE(integer(info["rank"]), rank);
        QCOMPARE(integer(info["world_size"]), 2);
        QCOMPARE(integer(info["pg_config"].at(0)["pg_size"]), 2);

        simdjson::dom::array events;
        QVERIFY(!doc["traceEvents"].get(events));
        const Census c = census(events);
        QCOMPARE(c.events, file.events);
        for (const char* cat :
            { "cpu_op", "user_annotation", "python_function", "cuda_runtime", "kernel", "gpu_memcpy",
                "gpu_memset", "cuda_sync", "gpu_user_annotation", "ac2g", "fwdbwd", "cpu_instant_event" })
            QVERIFY2(c.byCategory.count(cat) && c.byCategory.at(cat) > 0, cat);
        for (const char* name :
            { "process_name", "process_labels", "process_sort_index", "thread_name", "thread_sort_index" })
            QVERIFY2(c.metadataNames.count(name), name);

        // Realistic mix (docs/performance.md): ~9 % GPU activity, many flows.
        const double gpu =
            double(c.byCategory.at("kernel") + c.byCategory.at("gpu_memcpy") + c.byCategory.at("gpu_memset"));
        QVERIFY(gpu / double(c.events) > 0.05 && gpu / double(c.events) < 0.15);
        const double flows = double(c.byPhase.at("s") + c.byPhase.at("f"));
        QVERIFY(flows / double(c.events) > 0.2 && flows / double(c.events) < 0.4);

        // Every device event has its launch; kernels start after it (double
        // holds epoch microseconds to 0.25 us, hence the tolerance).
        for (const auto& [correlation, ts] : c.deviceWork) {
            const auto launch = c.launchTs.find(correlation);
            QVERIFY2(launch != c.launchTs.end(), "device event without launch");
            QVERIFY(ts >= launch->second - 0.5);
        }
        for (const auto& [key, counts] : c.flows)
            QVERIFY2(counts.first == 1 && counts.second == 1, key.first.c_str());
        QVERIFY(allUnique(c.externalIds));
        QVERIFY(allUnique(c.evIdx));
        QVERIFY(allUnique(c.pythonIds));
        QVERIFY(allUnique(c.correlations));
        QVERIFY(c.steps.size() >= 3);
        QCOMPARE(c.gpuSteps, c.steps);
        QVERIFY(!c.ncclEnds.empty());
        QCOMPARE(c.ncclWithArgs, c.ncclEnds.size());
        QCOMPARE(c.memoryWithArgs, c.byCategory.at("cpu_instant_event"));

        // HTA finds the rank with a regex that needs a space after the colon.
        QVERIFY(readAll(file.path).find("\"rank\": " + std::to_string(rank)) != std::string::npos);
    }
}

void TestSynth::sizeIsNearTarget()
{
    QTemporaryDir dir;
    SynthOptions options = smallJob(dir.path(), 1);
    for (const std::uint64_t target : { 2'000'000ULL, 6'000'000ULL }) {
        options.targetBytes = target;
        auto files = generateSyntheticTraces(options);
        QVERIFY(files.ok());
        const auto bytes = double(QFileInfo(QString::fromStdString(files.value()[0].path)).size());
        QCOMPARE(files.value()[0].jsonBytes, static_cast<std::uint64_t>(bytes));
        QVERIFY2(std::abs(bytes / double(target) - 1.0) < 0.10, std::to_string(bytes).c_str());
    }
}

void TestSynth::sameSeedSameBytes()
{
    QTemporaryDir a;
    QTemporaryDir b;
    QTemporaryDir c;
    SynthOptions options = smallJob(a.path(), 1);
    QVERIFY(generateSyntheticTraces(options).ok());
    options.outDir = b.path().toStdString();
    QVERIFY(generateSyntheticTraces(options).ok());
    options.outDir = c.path().toStdString();
    options.seed = 43;
    QVERIFY(generateSyntheticTraces(options).ok());
    const std::string first = readAll(a.filePath(QStringLiteral("rank-0.pt.trace.json")).toStdString());
    QVERIFY(!first.empty());
    QCOMPARE(readAll(b.filePath(QStringLiteral("rank-0.pt.trace.json")).toStdString()), first);
    QVERIFY(readAll(c.filePath(QStringLiteral("rank-0.pt.trace.json")).toStdString()) != first);
}

void TestSynth::gzipHoldsTheSameJson()
{
    QTemporaryDir plainDir;
    QTemporaryDir gzipDir;
    SynthOptions options = smallJob(plainDir.path(), 1);
    QVERIFY(generateSyntheticTraces(options).ok());
    options.outDir = gzipDir.path().toStdString();
    options.gzip = true;
    options.gzipLevel = 1;
    auto files = generateSyntheticTraces(options);
    QVERIFY(files.ok());
    const std::string path = files.value()[0].path;
    QVERIFY(QString::fromStdString(path).endsWith(QStringLiteral(".pt.trace.json.gz")));
    QFile raw(QString::fromStdString(path));
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray magic = raw.read(2);
    QCOMPARE(magic, QByteArray("\x1f\x8b"));
    QVERIFY(files.value()[0].fileBytes < files.value()[0].jsonBytes / 5);
    std::string plain = readAll(plainDir.filePath(QStringLiteral("rank-0.pt.trace.json")).toStdString());
    std::string inflated = readAll(path);
    // Only the trace name differs (it carries the file name).
    const auto strip = [](std::string s) { return s.substr(0, s.rfind("\"traceName\"")); };
    QCOMPARE(strip(inflated), strip(plain));
}

void TestSynth::collectivesAgreeAcrossRanks()
{
    QTemporaryDir dir;
    auto files = generateSyntheticTraces(smallJob(dir.path(), 3));
    QVERIFY(files.ok());
    std::vector<std::vector<double>> ends;
    for (const WrittenFile& file : files.value()) {
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        QVERIFY(!parser.load(file.path).get(doc));
        ends.push_back(census(doc["traceEvents"].get_array().value()).ncclEnds);
        std::sort(ends.back().begin(), ends.back().end());
    }
    QVERIFY(ends[0].size() > 3);
    for (std::size_t r = 1; r < ends.size(); ++r) {
        QCOMPARE(ends[r].size(), ends[0].size());
        // The same collective ends at the same time on every rank, up to the
        // rank's constant clock skew (< 50 us).
        const double skew = ends[r][0] - ends[0][0];
        QVERIFY(std::abs(skew) <= 50.0);
        for (std::size_t k = 0; k < ends[0].size(); ++k)
            QVERIFY(std::abs(ends[r][k] - ends[0][k] - skew) <= 1.0);
    }
}

// --stragglers 1 --slowdown 2: rank 1's compute kernels take twice as long,
// its collectives still end with the others', and the healthy ranks spend the
// difference waiting inside their NCCL kernels.
void TestSynth::stragglersComputeLongerOthersWait()
{
    QTemporaryDir dir;
    SynthOptions options = smallJob(dir.path(), 3);
    options.stragglers = { 1 };
    options.slowdown = 2.0;
    auto files = generateSyntheticTraces(options);
    QVERIFY2(files.ok(), files.ok() ? "" : files.error().describe().c_str());
    std::vector<Census> ranks;
    for (const WrittenFile& file : files.value()) {
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        QVERIFY(!parser.load(file.path).get(doc));
        ranks.push_back(census(doc["traceEvents"].get_array().value()));
        std::sort(ranks.back().ncclEnds.begin(), ranks.back().ncclEnds.end());
    }
    for (const std::size_t healthy : { std::size_t(0), std::size_t(2) }) {
        // Kernel by kernel, medians: durations are noisy with rare long outliers.
        const auto median = [](std::vector<double> v) {
            std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
            return v[v.size() / 2];
        };
        std::vector<double> ratios;
        for (const auto& [name, durations] : ranks[healthy].computeKernels)
            if (const auto other = ranks[1].computeKernels.find(name); other != ranks[1].computeKernels.end())
                ratios.push_back(median(other->second) / median(durations));
        QVERIFY(ratios.size() > 10);
        const double ratio = median(ratios);
        QVERIFY2(ratio > 1.85 && ratio < 2.15, qPrintable(QString::number(ratio)));
        // The healthy ranks wait for the straggler inside their all-reduces.
        QVERIFY(ranks[healthy].ncclKernelUs > 1.5 * ranks[1].ncclKernelUs);
        QCOMPARE(ranks[healthy].ncclEnds.size(), ranks[1].ncclEnds.size());
        const double skew = ranks[healthy].ncclEnds[0] - ranks[1].ncclEnds[0];
        QVERIFY(std::abs(skew) <= 50.0);
        for (std::size_t k = 0; k < ranks[1].ncclEnds.size(); ++k)
            QVERIFY(std::abs(ranks[healthy].ncclEnds[k] - ranks[1].ncclEnds[k] - skew) <= 1.0);
    }
    options.stragglers = { 3 };
    QVERIFY(!generateSyntheticTraces(options).ok()); // outside the job
    options.stragglers = { 1 };
    options.slowdown = 0.5;
    QVERIFY(!generateSyntheticTraces(options).ok()); // a speed-up is not a straggler
}

void TestSynth::readerLoadsWithoutAnomalies()
{
    QTemporaryDir dir;
    SynthOptions options = smallJob(dir.path(), 2);
    options.gzip = true;
    auto files = generateSyntheticTraces(options);
    QVERIFY(files.ok());
    for (int rank = 0; rank < 2; ++rank) {
        const WrittenFile& file = files.value()[static_cast<std::size_t>(rank)];
        auto loaded = loadRankFile(file.path, LoadOptions {}, nullptr, nullptr);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().describe().c_str());
        const RankTrace& trace = loaded.value();
        QCOMPARE(trace.rank, rank);
        QCOMPARE(trace.counts.events, file.events);
        QCOMPARE(trace.counts.jsonBytes, file.jsonBytes);
        for (const DiagnosticKind kind : { DiagnosticKind::OrphanFlowStart, DiagnosticKind::OrphanFlowEnd,
                 DiagnosticKind::KernelBeforeLaunch, DiagnosticKind::UnlinkedGpuWork,
                 DiagnosticKind::MissingField, DiagnosticKind::WrongFieldType,
                 DiagnosticKind::NegativeDuration })
            QVERIFY2(trace.diagnostics.count(kind) == 0, std::string(diagnosticName(kind)).c_str());
    }
}

void TestSynth::invalidOptionsAreErrors()
{
    QTemporaryDir dir;
    SynthOptions options = smallJob(dir.path());
    options.ranks = 0;
    QCOMPARE(planSyntheticJob(options).error().code, ErrorCode::InvalidArgument);
    options = smallJob(dir.path());
    options.targetBytes = 0;
    QCOMPARE(planSyntheticJob(options).error().code, ErrorCode::InvalidArgument);
    options = smallJob(dir.path());
    options.gzipLevel = 11;
    QCOMPARE(planSyntheticJob(options).error().code, ErrorCode::InvalidArgument);
    options = smallJob(QStringLiteral("/proc/no-such-folder/x"));
    auto plan = planSyntheticJob(options);
    QVERIFY(!plan.ok());
    QCOMPARE(plan.error().path, options.outDir);
}

namespace {

// A small Kineto-like trace: metadata, two profiler steps, a launch with its
// kernel and ac2g flow, a fwdbwd flow, an event record waited on, Python ids.
const char* const kTinyTrace = R"({
  "schemaVersion": 1,
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},
  "traceEvents": [
  {"name": "process_name", "ph": "M", "ts": 1700000000000000.000, "pid": 10, "tid": 0, "args": {"name": "python"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 10, "tid": 10, "ts": 1700000000000100.125, "dur": 500.5, "args": {"External id": 1, "Ev Idx": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 1700000000000110.250, "dur": 50, "args": {"External id": 2, "Sequence number": 7, "Ev Idx": 1}},
  {"ph": "s", "id": 1, "pid": 10, "tid": 10, "ts": 1700000000000110.250, "cat": "fwdbwd", "name": "fwdbwd"},
  {"ph": "X", "cat": "python_function", "name": "f", "pid": 10, "tid": 10, "ts": 1700000000000105, "dur": 100, "args": {"Python parent id": 4, "Python id": 5, "Ev Idx": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 10, "ts": 1700000000000120.001, "dur": 5, "args": {"External id": 2, "cbid": 211, "correlation": 100}},
  {"ph": "s", "id": 100, "pid": 10, "tid": 10, "ts": 1700000000000120.001, "cat": "ac2g", "name": "ac2g"},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1700000000000130.999, "dur": 20, "args": {"External id": 2, "stream": 7, "correlation": 100}},
  {"ph": "f", "id": 100, "pid": 0, "tid": 7, "ts": 1700000000000130.999, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventRecord", "pid": 10, "tid": 10, "ts": 1700000000000140, "dur": 1, "args": {"External id": 2, "cbid": 135, "correlation": 101}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaEventSynchronize", "pid": 10, "tid": 10, "ts": 1700000000000149.5, "dur": 3, "args": {"External id": 2, "cbid": 137, "correlation": 102}},
  {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 0, "tid": -1, "ts": 1700000000000150, "dur": 1, "args": {"wait_on_cuda_event_record_corr_id": 101, "wait_on_stream": 7, "stream": -1, "correlation": 102}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 10, "tid": 10, "ts": 1700000000000700, "dur": 300, "args": {"External id": 3, "Ev Idx": 3}},
  {"ph": "X", "cat": "cpu_op", "name": "MmBackward0", "pid": 10, "tid": 11, "ts": 1700000000000800, "dur": 30, "args": {"External id": 4, "Sequence number": 7, "Ev Idx": 4}},
  {"ph": "f", "id": 1, "pid": 10, "tid": 11, "ts": 1700000000000800, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"}
  ],
  "traceName": "tiny",
  "baseTimeNanoseconds": 0
})";

} // namespace

void TestSynth::scalingKeepsIdsUnique()
{
    QTemporaryDir dir;
    const QString input = dir.filePath(QStringLiteral("rank-3.json"));
    QVERIFY(ks::test::writeFile(input, kTinyTrace));

    ScaleOptions options;
    options.inputPath = input.toStdString();
    options.copies = 3;
    options.outDir = dir.filePath(QStringLiteral("out")).toStdString();
    auto written = scaleTrace(options);
    QVERIFY2(written.ok(), written.ok() ? "" : written.error().describe().c_str());
    QCOMPARE(QString::fromStdString(written.value().path),
        dir.filePath(QStringLiteral("out/rank-3.x3.pt.trace.json")));
    QCOMPARE(written.value().events, std::uint64_t(14 * 3 + 1));

    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    QVERIFY(!parser.load(written.value().path).get(doc));
    QCOMPARE(integer(doc["distributedInfo"]["rank"]), 3);
    QCOMPARE(str(doc["traceName"]), std::string_view("tiny"));
    const Census c = census(doc["traceEvents"].get_array().value());
    QCOMPARE(c.byPhase.at("M"), std::size_t(1));
    QVERIFY(allUnique(c.externalIds));
    QVERIFY(allUnique(c.evIdx));
    QVERIFY(allUnique(c.pythonIds));
    QVERIFY(allUnique(c.correlations));
    for (const auto& [key, counts] : c.flows)
        QVERIFY(counts.first == 1 && counts.second == 1);
    QCOMPARE(c.flows.size(), std::size_t(6));
    QCOMPARE(c.steps,
        (std::set<std::string> { "ProfilerStep#3", "ProfilerStep#4", "ProfilerStep#5", "ProfilerStep#6",
            "ProfilerStep#7", "ProfilerStep#8" }));
    for (const auto& [correlation, ts] : c.deviceWork)
        QVERIFY(c.launchTs.count(correlation));

    // Timestamps keep their decimals exactly; copies shift by whole microseconds
    // (span 900 us + 100 us gap = 1000 us), and references follow their copy.
    const std::string text = readAll(written.value().path);
    QVERIFY(text.find("\"ts\": 1700000000001130.999") != std::string::npos);
    QVERIFY(text.find("\"ts\": 1700000000002110.250") != std::string::npos);
    // Correlations and flow ids share one offset (max 102, so +103 per copy).
    QVERIFY(text.find("\"wait_on_cuda_event_record_corr_id\": 204") != std::string::npos);
    QVERIFY(text.find("\"Python parent id\": 10") != std::string::npos);
}

void TestSynth::scalingSharedTrace()
{
    const QString trace = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled/sampled_rank-0.json.gz");
    if (!QFile::exists(trace))
        QSKIP("shared traces absent: ../shared/traces/two_ranks_sampled not found");
    QTemporaryDir dir;
    ScaleOptions options;
    options.inputPath = trace.toStdString();
    options.copies = 2;
    options.outDir = dir.path().toStdString();
    options.gzip = true;
    auto written = scaleTrace(options);
    QVERIFY(written.ok());

    auto source = readTraceText(options.inputPath);
    QVERIFY(source.ok());
    simdjson::dom::parser sourceParser;
    simdjson::dom::element sourceDoc;
    QVERIFY(!sourceParser.parse(source.value()).get(sourceDoc));
    const Census before = census(sourceDoc["traceEvents"].get_array().value());

    auto scaled = readTraceText(written.value().path);
    QVERIFY(scaled.ok());
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    QVERIFY(!parser.parse(scaled.value()).get(doc));
    const Census after = census(doc["traceEvents"].get_array().value());
    const std::size_t metadata = before.byPhase.at("M");
    QCOMPARE(after.events, (before.events - metadata) * 2 + metadata);
    QCOMPARE(after.externalIds.size(), before.externalIds.size() * 2);
    QVERIFY(allUnique(after.externalIds));
    QVERIFY(allUnique(after.evIdx));
    QVERIFY(allUnique(after.correlations));
    QCOMPARE(after.steps.size(), before.steps.size() * 2);
    QCOMPARE(linked(after), linked(before) * 2);
    QCOMPARE(integer(doc["distributedInfo"]["rank"]), integer(sourceDoc["distributedInfo"]["rank"]));
}

void TestSynth::scalingBadInputs()
{
    QTemporaryDir dir;
    ScaleOptions options;
    options.outDir = dir.filePath(QStringLiteral("out")).toStdString();

    options.inputPath = dir.filePath(QStringLiteral("missing.json")).toStdString();
    auto missing = scaleTrace(options);
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().path, options.inputPath);

    const QString notJson = dir.filePath(QStringLiteral("not.json"));
    QVERIFY(ks::test::writeFile(notJson, "{\"traceEvents\": [ {\"ph\": "));
    options.inputPath = notJson.toStdString();
    auto broken = scaleTrace(options);
    QVERIFY(!broken.ok());
    QCOMPARE(broken.error().code, ErrorCode::NotJson);

    const QString noEvents = dir.filePath(QStringLiteral("other.json"));
    QVERIFY(ks::test::writeFile(noEvents, "{\"nodes\": []}"));
    options.inputPath = noEvents.toStdString();
    auto notKineto = scaleTrace(options);
    QVERIFY(!notKineto.ok());
    QCOMPARE(notKineto.error().code, ErrorCode::NoTraceEvents);

    options.copies = 0;
    QCOMPARE(scaleTrace(options).error().code, ErrorCode::InvalidArgument);
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_synth, TestSynth)
#include "tst_synth.moc"
