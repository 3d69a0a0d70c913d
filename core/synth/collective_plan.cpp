#include "core/synth/collective_plan.h"

#include <algorithm>
#include <bit>

namespace ks::core {

std::int64_t collectiveTransferNs(const SynthJobShape& shape, int step, int k)
{
    const auto bytes = static_cast<double>(shape.collectiveElements(k) * 4);
    const int world = shape.worldSize;
    double ns = 0;
    if (world == 1) {
        ns = 6000 + bytes / 1500.0; // a local copy at ~1.5 TB/s
    } else {
        // Ring all-reduce moves 2(n-1)/n of the data; NVLink inside a node,
        // the network across nodes.
        const double busGbPerSecond = world <= 8 ? 150.0 : 45.0;
        const double hops = std::bit_width(static_cast<unsigned>(world));
        ns = 10000 + 2000 * hops + 2.0 * (world - 1) / world * bytes / busGbPerSecond;
    }
    SynthRng rng(
        mixSeed(shape.seed, 0xC011, static_cast<std::uint64_t>(step), static_cast<std::uint64_t>(k)));
    return rng.around(static_cast<std::int64_t>(ns), 0.1);
}

CollectivePlan planCollectives(const SynthJobShape& shape, const StepTexts& texts, int ranks, int steps)
{
    CollectivePlan plan;
    plan.steps = steps;
    plan.perStep = shape.collectivesPerStep();
    plan.ends.assign(static_cast<std::size_t>(steps) * static_cast<std::size_t>(plan.perStep), 0);
    plan.stepStarts.assign(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(steps + 1), 0);

    std::vector<TrainingStepSimulator> sims;
    sims.reserve(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
        sims.emplace_back(shape, r, texts);
    auto startSlot = [&](int rank, int step) -> std::int64_t& {
        return plan.stepStarts[static_cast<std::size_t>(rank) * static_cast<std::size_t>(steps + 1)
            + static_cast<std::size_t>(step)];
    };
    for (int r = 0; r < ranks; ++r)
        startSlot(r, 0) = sims[static_cast<std::size_t>(r)].nextStepStart();

    StepRecords scratch;
    std::vector<std::int64_t> arrivals;
    std::vector<std::int64_t> latest(static_cast<std::size_t>(plan.perStep));
    std::int64_t previousEnd = 0;
    for (int s = 0; s < steps; ++s) {
        // Phase A on a throwaway copy of each rank gives the arrivals without
        // keeping any rank's records (memory stays flat with thousands of ranks).
        std::fill(latest.begin(), latest.end(), 0);
        for (const TrainingStepSimulator& sim : sims) {
            TrainingStepSimulator ahead = sim;
            scratch.clear();
            ahead.runForwardBackward(s, nullptr, scratch, arrivals);
            for (std::size_t k = 0; k < latest.size(); ++k)
                latest[k] = std::max(latest[k], arrivals[k]);
        }
        std::int64_t* ends = plan.ends.data() + static_cast<std::size_t>(s) * latest.size();
        for (std::size_t k = 0; k < latest.size(); ++k) {
            ends[k] = std::max(latest[k], previousEnd) + collectiveTransferNs(shape, s, static_cast<int>(k));
            previousEnd = ends[k];
        }
        // Now the whole step, with the collective ends known.
        for (int r = 0; r < ranks; ++r) {
            TrainingStepSimulator& sim = sims[static_cast<std::size_t>(r)];
            scratch.clear();
            sim.runForwardBackward(s, ends, scratch, arrivals);
            sim.runOptimizer(s, previousEnd, scratch);
            startSlot(r, s + 1) = sim.nextStepStart();
        }
    }
    return plan;
}

} // namespace ks::core
