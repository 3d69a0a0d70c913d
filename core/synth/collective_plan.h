#pragma once

#include "core/synth/step_texts.h"
#include "core/synth/training_step.h"

#include <cstdint>
#include <vector>

namespace ks::core {

// When each all-reduce of the job ends, identically on every rank: the slowest
// rank's arrival (or the previous collective's end) plus the transfer time.
// Computed by simulating every rank once without writing anything; each rank's
// file is then generated independently (in parallel) and still agrees with the
// others: the same collective ends at the same time everywhere, and ranks that
// arrived early show the wait inside their NCCL kernel, as in real jobs.
struct CollectivePlan
{
    int steps = 0;
    int perStep = 0;
    std::vector<std::int64_t> ends; // steps x perStep
    std::vector<std::int64_t> stepStarts; // ranks x (steps + 1): a check for the writing pass

    const std::int64_t* stepEnds(int step) const
    {
        return ends.data() + static_cast<std::size_t>(step) * static_cast<std::size_t>(perStep);
    }

    std::int64_t stepStart(int rank, int step) const
    {
        return stepStarts[static_cast<std::size_t>(rank) * static_cast<std::size_t>(steps + 1)
            + static_cast<std::size_t>(step)];
    }
};

// Transfer time of collective k of `step` (ns), the same for all ranks.
std::int64_t collectiveTransferNs(const SynthJobShape& shape, int step, int k);

CollectivePlan planCollectives(const SynthJobShape& shape, const StepTexts& texts, int ranks, int steps);

} // namespace ks::core
