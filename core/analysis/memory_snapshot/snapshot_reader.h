#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/common/result.h"
#include "core/io/pickle/pickle_document.h"
#include "core/io/pickle/pickle_reader.h"

#include <string>

namespace ks::core {

// A decoded pickle as a memory snapshot: the dict of _dump_snapshot() (2.0+,
// with or without device_traces) or the bare segment list of
// memory_snapshot() / torch 1.13. A pickle of another shape, or a field of the
// wrong type, is an error naming the file and where ("segments[3].blocks[0]
// .size is a str"). Work is bounded by the document's size even when a
// crafted pickle shares one list many times.
Result<MemorySnapshot> snapshotFromPickle(const PickleDocument& doc, const std::string& path);

// readPickleFile, then snapshotFromPickle; the document is freed before returning.
Result<MemorySnapshot> readMemorySnapshot(const std::string& path, const PickleLimits& limits = {});

} // namespace ks::core
