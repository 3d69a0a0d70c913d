#pragma once

// What overlapping communication with compute cannot give back: the last bucket.
// DDP (and FSDP's reduce-scatter) reduces each bucket of gradients as soon as the
// backward has produced it; the bucket produced last is ready only when the
// backward ends, so its reduction stays exposed after the fix, once per
// iteration. The exposed_communication rule subtracts it from its gain.

#include "core/model/event_tables.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ks::core {

// One collective as the critical path counts it on one rank.
struct PathCollective
{
    std::int64_t iteration = -1; // -1: none known (all such collectives are one iteration)
    TimeNs onPath = 0; // the path's time in it
    TimeNs hidden = 0; // of which its rank computed beside it
    TimeNs transfer = 0; // the instance's shortest member duration: its cost without waiting
};

struct LastBucket
{
    // A bucket's reduction as this trace measured it: the median transfer of the
    // collectives that ran hidden (at least half their path time beside compute),
    // the buckets already overlapped. None: no collective ran hidden.
    std::optional<TimeNs> bucket;
    std::size_t overlapped = 0; // the collectives it was measured on
    std::size_t iterations = 0; // iterations with exposed communication
    TimeNs left = 0; // per such iteration one bucket, at most its exposed time
};

LastBucket lastBucketLeft(const std::vector<PathCollective>& collectives);

} // namespace ks::core
