// kinetoscope-cli-mpi: `summarize` spread over MPI processes. The one
// executable that links Open MPI, in a package of its own (kinetoscope-mpi), so
// that the desktop app and kinetoscope-cli never pull MPI in.

#include "app/cli/commands/summary_cli.h"
#include "app/cli/mpi/mpi_summarize.h"
#include "app/cli/output/troff_text.h"
#include "app/common/allocator_tuning.h"

#include <algorithm>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#ifndef KS_VERSION
#define KS_VERSION "unknown"
#endif

namespace {

constexpr const char* kCommand = "kinetoscope-cli-mpi summarize";

const char* const kUsage =
    "usage: kinetoscope-cli-mpi summarize PATH... --out JOB.kssum [--jobs K] [--hta-compat]\n"
    "       [--bins N] [--margin F]\n"
    "       mpirun -np P kinetoscope-cli-mpi summarize ... (or srun): each of the P processes\n"
    "       summarises its share of the files into its local temporary folder, MPI rank 0\n"
    "       receives the parts over MPI and writes JOB.kssum (no shared file system needed).\n"
    "       Started alone it summarises every file itself, as kinetoscope-cli summarize does.\n"
    "       --jobs K: ranks in memory at once per process (default: all cores).\n";

void printManPage(std::ostream& out)
{
    out << ".TH KINETOSCOPE-CLI-MPI 1 \"\" \"kinetoscope " << KS_VERSION << "\" \"User Commands\"\n"
        << ".SH NAME\nkinetoscope\\-cli\\-mpi \\- summarise a PyTorch profiler job over MPI processes\n"
        << ".SH SYNOPSIS\n.B mpirun \\-np\n.I P\n.B kinetoscope\\-cli\\-mpi summarize\n\\fIPATH\\fR... "
           "\\fB\\-\\-out\\fR \\fIJOB.kssum\\fR [\\fIoptions\\fR]\n"
        << ".SH DESCRIPTION\nWrites the same SQLite job summary as \\fBkinetoscope\\-cli summarize\\fR, with "
           "the job's rank files shared out over the processes of an MPI job. Exit status: 0 success, 1 a "
           "file failed, 2 a usage error.\n"
        << ".SH USAGE\n.nf\n";
    ks::cli::writeTroffText(out, kUsage);
    out << ".fi\n.SH SEE ALSO\n.BR kinetoscope\\-cli (1),\n.BR mpirun (1)\n";
}

int runSummarize(const std::vector<std::string>& args)
{
    const auto cli = ks::cli::parseSummarizeArguments(args, kCommand, kUsage, std::cerr);
    if (!cli)
        return 2;
    if (auto status = ks::cli::summarizeUnderMpi(*cli, std::cout, std::cerr))
        return *status;
    if (const int status = ks::cli::summarizeToFile(*cli, cli->out, std::cerr))
        return status;
    return ks::cli::reportSummary(cli->out, kCommand, std::cout, std::cerr);
}

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces();
    const std::vector<std::string> args(argv + 1, argv + argc);
    const std::string command = args.empty() ? std::string() : args.front();
    if (command == "--version" || command == "-V") {
        std::cout << "kinetoscope-cli-mpi " << KS_VERSION << '\n';
        return 0;
    }
    if (command == "--man") { // not advertised: the build writes the man page with it
        printManPage(std::cout);
        return 0;
    }
    const bool help = command == "help" || std::any_of(args.begin(), args.end(), [](const std::string& a) {
        return a == "--help" || a == "-h";
    });
    if (help) {
        std::cout << kUsage;
        return 0;
    }
    if (command != "summarize") {
        std::cerr << (command.empty() ? "kinetoscope-cli-mpi: a command is needed\n"
                                      : "kinetoscope-cli-mpi: unknown command '" + command
                    + "' (the MPI build runs summarize only; the others are in kinetoscope-cli)\n")
                  << kUsage;
        return 2;
    }
    try {
        return runSummarize({ args.begin() + 1, args.end() });
    } catch (const std::bad_alloc&) {
        std::cout.flush();
        std::cerr << kCommand << ": not enough memory\n";
        return 1;
    }
}
