// `kinetoscope-cli memory`: where the memory goes. One command, one file per
// mode: --snapshot reads a PyTorch memory snapshot (memory_snapshot_cli.cpp);
// the mode over traces' [memory] events (PATH...) is added beside it.

#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/commands/memory_snapshot_cli.h"

#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli memory --snapshot FILE.pickle [--compare OTHER.pickle] [--device N]\n"
        "       [--top N] [--format table|csv|json]\n"
        "  A PyTorch memory snapshot (torch.cuda.memory._dump_snapshot(), the file memory_viz opens),\n"
        "  read without running any of it: per device reserved, allocated, active and requested bytes,\n"
        "  segments and blocks, the peak of the Active Memory Timeline (requested bytes, as memory_viz\n"
        "  draws it) with the allocations live there grouped by the program's own frame, the peak of\n"
        "  reserved memory, fragmentation and OOM events. --compare OTHER.pickle: a second snapshot\n"
        "  (after a change) beside it and the difference by frame. --device N: one device only;\n"
        "  --top N: frames listed per table (default 10).\n";

} // namespace

const char* const kMemoryUsage = kUsage;

int runMemoryCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const CliArgs parsed(args, { "--snapshot", "--compare", "--device", "--top", "--format" }, {});
    if (!parsed.ok()) {
        err << "kinetoscope-cli memory: " << parsed.error() << '\n' << kUsage;
        return 2;
    }
    if (parsed.value("--snapshot"))
        return runMemorySnapshotMode(parsed, out, err);
    err << "kinetoscope-cli memory: give --snapshot FILE.pickle (the memory of traces' [memory] events is "
           "not in this build)\n"
        << kUsage;
    return 2;
}

} // namespace ks::cli
