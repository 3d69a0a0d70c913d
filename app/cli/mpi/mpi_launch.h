#pragma once

namespace ks::cli {

// How many processes the MPI launcher (mpirun, srun) that started this one
// started in all, read from the variables launchers set; 0 when none did.
// Needs no MPI library: the plain CLI uses it to refuse running N copies of
// the same summary, the MPI build to decide whether to initialise MPI at all.
int mpiProcessCount();

} // namespace ks::cli
