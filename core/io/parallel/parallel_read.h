#pragma once

#include "core/common/background_work.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/io/gzip/input_stream.h"
#include "core/io/json/trace_events_splitter.h"
#include "core/io/store_builder/rank_builder.h"
#include "core/model/rank_metadata.h"

#include <cstddef>
#include <string>

namespace ks::core {

// Reads one document on several threads from `threads`: one inflates and cuts
// pieces, `workers` parse pieces into decoded batches, and the calling thread
// feeds the batches to `builder` strictly in piece order. The builder sees the
// same events in the same order as a one-thread read, so ids, strings, B/E
// pairs, flows and metadata that cross pieces resolve exactly as they would
// there, and the store is the same.
//
// Errors behave as in the one-thread read: the first in file order wins, out
// of memory on any thread gives ErrorCode::OutOfMemory. When not even one
// worker and the reading thread can start (std::system_error), nothing has
// been read and the exception leaves: the caller may read another way.
struct ParallelReadSetup
{
    std::size_t chunkBytes = 0;
    std::size_t workers = 1;
    BackgroundWorkFactory threads;
};

Result<SplitSummary> readParallel(InputStream& input, const std::string& path, RankBuilder& builder,
    RankMetadata& metadata, const ParallelReadSetup& setup, ProgressSink* progress,
    const CancelToken* cancel);

} // namespace ks::core
