#pragma once

// The one rule for which host spans are data loading: the `dataloader_stall`
// insight times them on the critical path, the rank overview gives their share of
// each step (the TensorBoard plugin's DataLoader share). One matcher, so the two
// never disagree on what loading is.

#include "core/analysis/frame/hta_frame.h"

#include <optional>
#include <string_view>

namespace ks::core {

// PyTorch's own annotations of a DataLoader's __next__
// ("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__") and common user
// names for loading ("load_batch", "data_loader"...).
bool isDataLoading(std::string_view name);

// The share (%) of one iteration's ProfilerStep#N span spent in data loading: the
// union of the rank's host loading spans, clipped to the step, over the step's length.
// None without that step row (or with a zero-length one).
std::optional<double> dataLoadingPct(const RankFrame& frame, std::int64_t iteration);

} // namespace ks::core
