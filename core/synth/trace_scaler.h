#pragma once

#include "core/common/result.h"
#include "core/synth/synth_options.h"

#include <string>

namespace ks::core {

// Scales a real trace up along time: writes one file whose traceEvents are
// `copies` copies of the input's events, copy k shifted by k x (the input's
// span + a small gap), with every id that links events offset per copy so
// links stay within a copy and ids stay unique: correlation (and ac2g flow
// ids, equal to it), wait_on_cuda_event_record_corr_id, flow ids, External id,
// Ev Idx, Python id / parent id, Sequence number; ProfilerStep#N is renumbered
// to keep increasing. Metadata (ph "M") events are written once; other
// top-level keys (distributedInfo, deviceProperties, ...) are kept verbatim.
Result<WrittenFile> scaleTrace(const ScaleOptions& options);

// "<outDir>/<input stem>.x<copies>.pt.trace.json" (+ ".gz").
std::string scaledTracePath(const ScaleOptions& options);

} // namespace ks::core
