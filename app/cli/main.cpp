#include "app/cli/command_table.h"
#include "app/cli/inputs/load_settings.h"
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

bool asksForHelp(const std::vector<std::string>& args)
{
    return std::any_of(
        args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces();
    if (argc < 2) {
        ks::cli::printOverview(std::cerr);
        return 2;
    }
    const std::string command = argv[1];
    std::vector<std::string> args(argv + 2, argv + argc);
    if (command == "help" || command == "--help" || command == "-h") {
        // "help COMMAND" is the same as "COMMAND --help".
        if (const auto* spec = args.empty() ? nullptr : ks::cli::findCommand(args.front()))
            std::cout << *spec->usage;
        else
            ks::cli::printOverview(std::cout);
        return 0;
    }
    if (command == "--version" || command == "-V") {
        std::cout << "kinetoscope-cli " << KS_VERSION << '\n';
        return 0;
    }
    if (command == "--man") { // not advertised: the build writes the man page with it
        ks::cli::printManPage(std::cout, KS_VERSION);
        return 0;
    }
    const auto* spec = ks::cli::findCommand(command);
    if (!spec) {
        std::cerr << ks::cli::unknownCommandText(command) << "\n";
        ks::cli::printOverview(std::cerr);
        return 2;
    }
    if (asksForHelp(args)) {
        std::cout << *spec->usage;
        return 0;
    }
    // The load settings are checked here, once for every command; each command reads them
    // from its own arguments.
    std::vector<std::string> checked = args;
    ks::cli::CliLoadSettings settings;
    if (const auto bad = ks::cli::takeLoadSettings(checked, settings)) {
        std::cerr << "kinetoscope-cli " << command << ": " << *bad << "\n" << *spec->usage;
        return 2;
    }
    // Last resort: the core turns a failed allocation while loading into an
    // error naming the file; one anywhere else still ends with one line, not an abort.
    try {
        return spec->run(args, std::cout, std::cerr);
    } catch (const std::bad_alloc&) {
        std::cout.flush();
        std::cerr << "kinetoscope-cli " << command << ": not enough memory\n";
        return 1;
    }
}
