#include "app/cli/cli_args.h"

#include "app/cli/output/nearest_name.h"

#include <algorithm>

namespace ks::cli {

namespace {

    // "unknown option --formt (did you mean --format?)"
    std::string unknownOptionText(const std::string& name, const std::vector<std::string>& valueOptions,
        const std::vector<std::string>& flagOptions)
    {
        std::vector<std::string> known = valueOptions;
        known.insert(known.end(), flagOptions.begin(), flagOptions.end());
        std::string text = "unknown option " + name;
        if (const auto near = nearestName(name, known))
            text += " (did you mean " + *near + "?)";
        return text;
    }

} // namespace

CliArgs::CliArgs(const std::vector<std::string>& args, const std::vector<std::string>& valueOptions,
    const std::vector<std::string>& flagOptions)
{
    auto contains = [](const std::vector<std::string>& list, const std::string& s) {
        return std::find(list.begin(), list.end(), s) != list.end();
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.rfind("--", 0) != 0 || a == "--") {
            m_positional.push_back(a);
            continue;
        }
        std::string name = a;
        std::optional<std::string> inlineValue;
        if (auto eq = a.find('='); eq != std::string::npos) {
            name = a.substr(0, eq);
            inlineValue = a.substr(eq + 1);
        }
        if (contains(valueOptions, name) || name == kMaxEventDurationOption) {
            if (inlineValue) {
                m_values.emplace_back(name, *inlineValue);
            } else if (i + 1 < args.size()) {
                m_values.emplace_back(name, args[++i]);
            } else {
                m_error = "option " + name + " needs a value";
                return;
            }
        } else if (contains(flagOptions, name) && !inlineValue) {
            m_flags.push_back(name);
        } else {
            m_error = unknownOptionText(name, valueOptions, flagOptions);
            return;
        }
    }
}

bool CliArgs::flag(const std::string& name) const
{
    return std::find(m_flags.begin(), m_flags.end(), name) != m_flags.end();
}

std::optional<std::string> CliArgs::value(const std::string& name) const
{
    for (auto it = m_values.rbegin(); it != m_values.rend(); ++it)
        if (it->first == name)
            return it->second;
    return std::nullopt;
}

std::vector<std::string> CliArgs::values(const std::string& name) const
{
    std::vector<std::string> all;
    for (const auto& [key, value] : m_values)
        if (key == name)
            all.push_back(value);
    return all;
}

} // namespace ks::cli
