#include "core/synth/synthetic_trace_generator.h"

#include "core/synth/json_writer.h"
#include "core/synth/kineto_event_writer.h"
#include "core/synth/output_sink.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace ks::core {

namespace {

    constexpr std::int64_t kMs = 1'000'000;
    // 2023-11-14, in epoch ns: Kineto writes epoch microseconds.
    constexpr std::int64_t kEpochBase = 1'700'000'000'000'000'000;
    // JSON per block and per step, measured on this generator; only picks the
    // model depth, the step count is calibrated below.
    constexpr std::uint64_t kBytesPerLayerStep = 110'000;
    constexpr std::uint64_t kMaxTarget = 1ULL << 40;
    constexpr int kMaxRanks = 65536;

    Error invalid(const std::string& message, const std::string& path = {})
    {
        return Error { ErrorCode::InvalidArgument, message, path, {} };
    }

    // Per-rank clock skew of up to +-25 us, as between hosts synced by NTP/PTP.
    std::int64_t clockSkew(std::uint64_t seed, int rank)
    {
        return static_cast<std::int64_t>(mixSeed(seed, 0x5CE3, static_cast<std::uint64_t>(rank)) % 50001)
            - 25000;
    }

    struct Calibration
    {
        double fixedBytes = 0; // header and footer
        double stepBytes = 0;
    };

    // Formats the first steps of rank 0 into a counting sink.
    Calibration calibrate(const SynthJobShape& shape, const StepTexts& texts)
    {
        constexpr int kSteps = 2;
        TrainingStepSimulator sim(shape, 0, texts);
        CountingSink sink;
        JsonWriter json(sink, 1 << 16);
        KinetoEventWriter writer(json, sim.layout(), sim.names(), texts.texts, kEpochBase);
        writer.writeHeader(shape);
        const auto header = static_cast<double>(json.bytesWritten());
        StepRecords records;
        std::vector<std::int64_t> arrivals;
        std::int64_t previousEnd = 0;
        for (int s = 0; s < kSteps; ++s) {
            records.clear();
            sim.runForwardBackward(s, nullptr, records, arrivals);
            for (std::size_t k = 0; k < arrivals.size(); ++k)
                previousEnd =
                    std::max(arrivals[k], previousEnd) + collectiveTransferNs(shape, s, static_cast<int>(k));
            sim.runOptimizer(s, previousEnd, records);
            writer.writeStep(records);
        }
        const auto afterSteps = static_cast<double>(json.bytesWritten());
        writer.writeFooter(sim.profilerStart(), sim.nextStepStart(), "rank-0.pt.trace.json");
        Calibration result;
        result.stepBytes = (afterSteps - header) / kSteps;
        result.fixedBytes = header + (static_cast<double>(json.bytesWritten()) - afterSteps);
        return result;
    }

    std::optional<Error> validate(const SynthOptions& options)
    {
        if (options.ranks < 1 || options.ranks > kMaxRanks)
            return invalid("ranks must be between 1 and " + std::to_string(kMaxRanks));
        if (options.targetBytes == 0 || options.targetBytes > kMaxTarget)
            return invalid("size per rank must be between 1 byte and 1 TiB");
        if (options.gzipLevel < 0 || options.gzipLevel > 9)
            return invalid("gzip level must be between 0 and 9");
        if (options.outDir.empty())
            return invalid("no output folder given");
        for (const int rank : options.stragglers)
            if (rank < 0 || rank >= options.ranks)
                return invalid("straggler rank " + std::to_string(rank) + " is outside the job (0 to "
                    + std::to_string(options.ranks - 1) + ")");
        if (!(options.slowdown >= 1.0 && options.slowdown <= 100.0))
            return invalid("slowdown must be between 1 and 100");
        return std::nullopt;
    }

} // namespace

std::string syntheticRankPath(const SynthOptions& options, int rank)
{
    const std::filesystem::path file =
        "rank-" + std::to_string(rank) + (options.gzip ? ".pt.trace.json.gz" : ".pt.trace.json");
    return (std::filesystem::path(options.outDir) / file).string();
}

Result<SynthPlan> planSyntheticJob(const SynthOptions& options)
{
    if (auto error = validate(options))
        return *error;
    std::error_code ec;
    std::filesystem::create_directories(options.outDir, ec);
    if (ec || !std::filesystem::is_directory(options.outDir))
        return invalid("cannot create output folder: " + (ec ? ec.message() : std::string("not a folder")),
            options.outDir);

    SynthPlan plan;
    plan.options = options;
    plan.shape.worldSize = options.ranks;
    plan.shape.seed = options.seed;
    plan.shape.python = options.pythonFunctions;
    plan.shape.stragglers = options.stragglers;
    plan.shape.slowdown = options.slowdown;
    plan.shape.firstStep = 1 + static_cast<int>(mixSeed(options.seed, 0x57E9) % 20);
    plan.shape.layers =
        static_cast<int>(std::clamp<std::uint64_t>(options.targetBytes / (12 * kBytesPerLayerStep), 1, 32));
    plan.texts = std::make_shared<const StepTexts>(buildStepTexts(plan.shape));

    const Calibration size = calibrate(plan.shape, *plan.texts);
    const double wanted = (static_cast<double>(options.targetBytes) - size.fixedBytes) / size.stepBytes;
    // At least three steps: HTA drops the last one and needs two to filter.
    const int steps = std::max(3, static_cast<int>(std::lround(wanted)));
    plan.collectives = planCollectives(plan.shape, *plan.texts, options.ranks, steps);
    plan.epochOrigin =
        kEpochBase + static_cast<std::int64_t>(mixSeed(options.seed, 0xE70C) % 86'400'000'000ULL) * 1000;
    return plan;
}

Result<WrittenFile> writeSyntheticRank(const SynthPlan& plan, int rank)
{
    if (rank < 0 || rank >= plan.options.ranks)
        return invalid("rank " + std::to_string(rank) + " is outside the job");
    const std::string path = syntheticRankPath(plan.options, rank);
    auto opened = openOutputFile(path, plan.options.gzip, plan.options.gzipLevel);
    if (!opened)
        return opened.error();
    OutputSink& sink = *opened.value();

    TrainingStepSimulator sim(plan.shape, rank, *plan.texts);
    JsonWriter json(sink);
    KinetoEventWriter writer(json, sim.layout(), sim.names(), plan.texts->texts,
        plan.epochOrigin + clockSkew(plan.options.seed, rank));
    writer.writeHeader(plan.shape);
    StepRecords records;
    std::vector<std::int64_t> arrivals;
    const CollectivePlan& collectives = plan.collectives;
    for (int s = 0; s < collectives.steps && json.ok(); ++s) {
        if (sim.nextStepStart() != collectives.stepStart(rank, s)) {
            std::remove(path.c_str());
            return invalid("internal error: rank " + std::to_string(rank) + " diverged from the plan at step "
                    + std::to_string(s),
                path);
        }
        records.clear();
        sim.runForwardBackward(s, collectives.stepEnds(s), records, arrivals);
        sim.runOptimizer(s, collectives.stepEnds(s)[collectives.perStep - 1], records);
        writer.writeStep(records);
    }
    // The file name, not the path: output is byte-identical wherever it is written.
    writer.writeFooter(
        sim.profilerStart(), sim.nextStepStart() + 2 * kMs, std::filesystem::path(path).filename().string());
    return finishTraceFile(json, std::move(opened).value(), path, writer.events());
}

Result<std::vector<WrittenFile>> generateSyntheticTraces(const SynthOptions& options)
{
    auto plan = planSyntheticJob(options);
    if (!plan)
        return plan.error();
    std::vector<WrittenFile> files;
    for (int r = 0; r < options.ranks; ++r) {
        auto file = writeSyntheticRank(plan.value(), r);
        if (!file)
            return file.error();
        files.push_back(std::move(file).value());
    }
    return files;
}

} // namespace ks::core
