#include "app/cli/mpi/mpi_launch.h"

#include <charconv>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace ks::cli {

int mpiProcessCount()
{
    // Open MPI's mpirun, then PMI (srun --mpi=pmi2, MPICH's Hydra).
    for (const char* name : { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" }) {
        const char* text = std::getenv(name);
        int count = 0;
        if (text && std::from_chars(text, text + std::strlen(text), count).ec == std::errc() && count > 0)
            return count;
    }
    // PMIx (srun --mpi=pmix) names the rank only: at least one process.
    return std::getenv("PMIX_RANK") ? 1 : 0;
}

} // namespace ks::cli
