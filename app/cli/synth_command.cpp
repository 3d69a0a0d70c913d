// Placeholder until the synth generator lands (owned by the synth work).
#include "app/cli/commands.h"

#include <ostream>

namespace ks::cli {

int runSynthCommand(const std::vector<std::string>&, std::ostream&, std::ostream& err)
{
    err << "kinetoscope-cli synth: not built yet\n";
    return 2;
}

} // namespace ks::cli
