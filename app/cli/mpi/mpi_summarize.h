#pragma once

#include "app/cli/commands/summary_cli.h"

#include <iosfwd>
#include <optional>

namespace ks::cli {

// When this process was started by mpirun/srun with more than one process:
// each summarises its share of the files, rank 0 gathers the parts over MPI
// and writes the one summary. nullopt when not under MPI (or alone): the
// caller then summarises every file itself. Only in kinetoscope-cli-mpi.
std::optional<int> summarizeUnderMpi(const SummarizeCli& cli, std::ostream& out, std::ostream& err);

} // namespace ks::cli
