#pragma once

#include "app/cli/cli_args.h"

#include <iosfwd>

namespace ks::cli {

// `memory --snapshot FILE.pickle [--compare OTHER.pickle]`: a PyTorch memory
// snapshot's numbers per device, the peak by frame, two snapshots compared.
// The trace mode of `memory` (PATH...) lives beside it in its own file.
int runMemorySnapshotMode(const CliArgs& args, std::ostream& out, std::ostream& err);

} // namespace ks::cli
