#pragma once

#include "core/common/result.h"
#include "core/synth/collective_plan.h"
#include "core/synth/step_texts.h"
#include "core/synth/synth_options.h"
#include "core/synth/training_step.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ks::core {

// Everything needed to write any rank of a synthetic job, in any order or in
// parallel (writeSyntheticRank only reads the plan).
struct SynthPlan
{
    SynthOptions options;
    SynthJobShape shape;
    std::shared_ptr<const StepTexts> texts;
    CollectivePlan collectives;
    std::int64_t epochOrigin = 0; // epoch ns of the job's time zero
};

// Validates the options, creates the output folder, sizes the job so each
// rank's JSON is close to options.targetBytes, and plans its collectives.
Result<SynthPlan> planSyntheticJob(const SynthOptions& options);

// "<outDir>/rank-<r>.pt.trace.json" (+ ".gz").
std::string syntheticRankPath(const SynthOptions& options, int rank);

// Writes one rank's trace file. Thread-safe for distinct ranks.
Result<WrittenFile> writeSyntheticRank(const SynthPlan& plan, int rank);

// Plans and writes all ranks, one after another.
Result<std::vector<WrittenFile>> generateSyntheticTraces(const SynthOptions& options);

} // namespace ks::core
