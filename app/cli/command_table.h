#pragma once

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks::cli {

using CommandFunction = int (*)(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// One subcommand of kinetoscope-cli. The table of them is the one place a
// command is registered: dispatch, `--help`, the overview and the man page all
// read it, so a new command is one row here plus its run function and usage.
struct CommandSpec
{
    std::string_view name;
    std::string_view summary; // one line for the overview
    const char* const* usage; // the command's usage text (see commands.h)
    CommandFunction run;
};

std::span<const CommandSpec> commandTable();

// nullptr when no command has that name.
const CommandSpec* findCommand(std::string_view name);

// "kinetoscope-cli: unknown command 'anlyze' (did you mean 'analyze'?)"
std::string unknownCommandText(std::string_view name);

// `kinetoscope-cli --help`: every command's synopsis and summary.
void printOverview(std::ostream& out);

// The same texts as a troff man page (kinetoscope-cli(1)), written at build time.
void printManPage(std::ostream& out, std::string_view version);

} // namespace ks::cli
