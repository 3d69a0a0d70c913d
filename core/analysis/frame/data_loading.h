#pragma once

// The one rule for which host spans are data loading: the `dataloader_stall`
// insight times them on the critical path, the rank overview gives their share of
// each step (the TensorBoard plugin's DataLoader share). One matcher, so the two
// never disagree on what loading is.

#include "core/analysis/frame/hta_frame.h"

#include <cstdint>
#include <map>
#include <string_view>

namespace ks::core {

// PyTorch's own annotations of a DataLoader's __next__
// ("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__") and common user
// names for loading ("load_batch", "data_loader"...).
bool isDataLoading(std::string_view name);

// Per iteration, the share (%) of its ProfilerStep#N span spent in data loading: the
// union of the rank's host loading spans, clipped to the step, over the step's length.
// Pass the rank's whole frame, not one iteration's: a loading span that starts in one
// step and ends in the next counts in both, each for its part. Iterations without a
// step row of positive length are absent.
std::map<std::int64_t, double> dataLoadingPctByIteration(const RankFrame& frame);

} // namespace ks::core
