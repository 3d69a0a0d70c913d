#pragma once

// The synthetic jobs the job-level tests (core summaries, job mode, many-rank
// charts) generate with core/synth.

#include "core/synth/synthetic_trace_generator.h"

#include <QString>

#include <cstdint>
#include <utility>
#include <vector>

namespace ks::test {

// A synthetic job of `ranks` small ranks (no python_function events) in
// `dir`, the `stragglers` computing `slowdown` times longer.
inline core::SynthOptions syntheticJob(const QString& dir, int ranks, std::uint64_t bytesPerRank,
    std::uint64_t seed, std::vector<int> stragglers = {}, double slowdown = 1.0)
{
    core::SynthOptions options;
    options.ranks = ranks;
    options.targetBytes = bytesPerRank;
    options.outDir = dir.toStdString();
    options.seed = seed;
    options.pythonFunctions = false;
    options.stragglers = std::move(stragglers);
    options.slowdown = slowdown;
    return options;
}

} // namespace ks::test
