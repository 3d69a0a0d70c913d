#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// The load setting every command that reads traces takes, anywhere on its command line
// (load_settings.h reads it): each command's CliArgs accepts it without listing it.
inline constexpr const char* kMaxEventDurationOption = "--max-event-duration";

// Minimal option parsing shared by the subcommands: "--name value", "--flag",
// and positional arguments, in any order.
class CliArgs
{
public:
    // valueOptions: options that take a value (e.g. "--out"); flagOptions: switches.
    CliArgs(const std::vector<std::string>& args, const std::vector<std::string>& valueOptions,
        const std::vector<std::string>& flagOptions);

    bool ok() const { return m_error.empty(); }

    const std::string& error() const { return m_error; }

    bool flag(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    // Every value of a repeatable option, in command-line order.
    std::vector<std::string> values(const std::string& name) const;

    const std::vector<std::string>& positional() const { return m_positional; }

private:
    std::vector<std::pair<std::string, std::string>> m_values;
    std::vector<std::string> m_flags;
    std::vector<std::string> m_positional;
    std::string m_error;
};

} // namespace ks::cli
