#pragma once

#include "core/common/background_work.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/io/gzip/input_stream.h"
#include "core/io/json/event_parser.h"
#include "core/io/json/trace_events_splitter.h"
#include "core/io/load_timeline.h"
#include "core/model/rank_metadata.h"

#include <string>

namespace ks::core {

// Reads one document with inflating and splitting on `background` while the
// calling thread parses: a GB rank spends about a third of its time inflating
// and cutting pieces, which then overlaps with parsing. Running out of memory
// on either thread gives ErrorCode::OutOfMemory. When `background` cannot start
// a thread (std::system_error) nothing has been read: the caller may read alone.
Result<SplitSummary> readPipelined(InputStream& input, const std::string& path, EventParser& parser,
    RankMetadata& metadata, std::size_t chunkBytes, ProgressSink* progress, const CancelToken* cancel,
    BackgroundWork& background, LoadTimeline* timeline = nullptr);

} // namespace ks::core
