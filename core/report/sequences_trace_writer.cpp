#include "core/report/sequences_trace_writer.h"

#include "core/io/json/json_scan.h"

#include <filesystem>
#include <optional>
#include <unordered_map>

namespace ks::core {

namespace {

    std::string_view trimmed(std::string_view text)
    {
        const std::size_t b = json::skipWhitespace(text, 0);
        std::size_t e = text.size();
        while (e > b
            && (text[e - 1] == ' ' || text[e - 1] == '\n' || text[e - 1] == '\r' || text[e - 1] == '\t'))
            --e;
        return text.substr(b, e - b);
    }

    bool isEmptyObject(std::string_view value)
    {
        const std::string_view v = trimmed(value);
        return !v.empty() && v.front() == '{' && trimmed(v.substr(1, v.size() - 2)).empty();
    }

    // HTA's `if row["args"]`: a missing args is NaN (true), null and {} are false.
    bool argsTruthy(const std::optional<std::string_view>& args)
    {
        if (!args)
            return true;
        const std::string_view v = trimmed(*args);
        return !(v == "null" || isEmptyObject(v) || v == "\"\"" || v == "0" || v == "false" || v == "[]");
    }

    class PatternEditor final : public TraceEventEditor
    {
    public:
        PatternEditor(
            const RankFrame& frame, const KernelSequences& sequences, const SequencesTraceOptions& options)
            : m_compress(options.compressOtherEvents)
        {
            const std::size_t top = std::min<std::size_t>(
                sequences.patterns.size(), static_cast<std::size_t>(std::max(options.topK, 0)));
            for (std::size_t p = 0; p < top; ++p)
                for (std::uint32_t e : sequences.patterns[p].eventIndices)
                    m_patternsOf[e].push_back(p);
            for (std::size_t p = 0; p < top; ++p) {
                std::string entry;
                appendJsonString(entry, sequences.patterns[p].pattern);
                m_entries.push_back(entry + ": " + std::to_string(sequences.patterns[p].count));
            }
            if (m_compress)
                buildSymbols(frame);
        }

        bool edit(std::uint64_t index, std::string_view element, std::string& out) override;

    private:
        void buildSymbols(const RankFrame& frame)
        {
            auto add = [this](std::string_view s) {
                if (m_symbols.emplace(std::string(s), static_cast<std::int64_t>(m_symbols.size())).second) {
                    m_spanArgs += m_spanArgs.empty() ? "{" : ", ";
                    appendJsonString(m_spanArgs, std::to_string(m_symbols.size() - 1));
                    m_spanArgs += ": ";
                    appendJsonString(m_spanArgs, s);
                }
            };
            for (const FrameRow& row : frame.rows) {
                add(frame.category(row));
                add(frame.name(row));
            }
            m_spanArgs += m_spanArgs.empty() ? "{}" : "}";
        }

        std::string patternArgs(std::uint64_t index, const std::optional<std::string_view>& args) const
        {
            std::string patterns = "{";
            const auto& list = m_patternsOf.at(static_cast<std::uint32_t>(index));
            for (std::size_t i = 0; i < list.size(); ++i)
                patterns += (i ? ", " : "") + m_entries[list[i]];
            patterns += '}';
            const std::string_view existing = args ? trimmed(*args) : std::string_view {};
            if (existing.empty() || existing.front() != '{')
                return "{\"Patterns\": " + patterns + "}";
            std::string merged(existing.substr(0, existing.size() - 1));
            merged += isEmptyObject(existing) ? "\"Patterns\": " : ", \"Patterns\": ";
            return merged + patterns + "}";
        }

        bool m_compress;
        std::unordered_map<std::uint32_t, std::vector<std::size_t>> m_patternsOf;
        std::vector<std::string> m_entries; // "pattern": count, per top pattern
        std::unordered_map<std::string, std::int64_t> m_symbols;
        std::string m_spanArgs;
    };

    bool PatternEditor::edit(std::uint64_t index, std::string_view element, std::string& out)
    {
        const bool inPattern = m_patternsOf.count(static_cast<std::uint32_t>(index)) != 0;
        if (!inPattern && !m_compress)
            return false;
        const std::vector<JsonMember> members = objectMembers(element);
        if (members.empty())
            return false;
        std::optional<std::string_view> args, name, ph, pid;
        for (const JsonMember& m : members) {
            if (m.key == "\"args\"")
                args = m.value;
            else if (m.key == "\"name\"")
                name = m.value;
            else if (m.key == "\"ph\"")
                ph = m.value;
            else if (m.key == "\"pid\"")
                pid = m.value;
        }
        std::optional<std::string> newArgs, newName;
        bool truthy = argsTruthy(args);
        if (inPattern) {
            newArgs = patternArgs(index, args);
            truthy = true;
        } else if (ph && trimmed(*ph) == "\"X\"") {
            newArgs = "{}"; // compress: complete events outside the patterns lose their args
            truthy = false;
        }
        const std::optional<std::string> text = name ? json::unescapeString(trimmed(*name)) : std::nullopt;
        if (m_compress && text) {
            if (auto s = m_symbols.find(*text); !truthy && s != m_symbols.end())
                newName = "\"" + std::to_string(s->second) + "\"";
            if (text->find("PyTorch Profiler") != std::string::npos && pid && trimmed(*pid) == "\"Spans\"")
                newArgs = m_spanArgs;
        }
        if (!newArgs && !newName)
            return false;
        out = "{";
        bool first = true;
        for (const JsonMember& m : members) {
            out += first ? "" : ", ";
            first = false;
            out.append(m.key);
            out += ": ";
            if (m.key == "\"args\"" && newArgs)
                out += *newArgs;
            else if (m.key == "\"name\"" && newName)
                out += *newName;
            else
                out.append(m.value);
        }
        if (!args && newArgs)
            out += (first ? "" : ", ") + std::string("\"args\": ") + *newArgs;
        out += '}';
        return true;
    }

} // namespace

std::string sequencesTracePath(const std::string& inputPath, const std::string& directory)
{
    return (std::filesystem::path(directory)
        / ("overlaid_" + std::filesystem::path(inputPath).filename().string()))
        .string();
}

Result<TraceWriteSummary> writeSequencesTrace(const RankFrame& frame, const KernelSequences& sequences,
    const std::string& outputPath, bool gzip, const SequencesTraceOptions& options)
{
    PatternEditor editor(frame, sequences, options);
    TraceWriteRequest request;
    request.inputPath = frame.trace->path;
    request.outputPath = outputPath;
    request.gzip = gzip;
    request.editor = &editor;
    return writeTrace(request);
}

} // namespace ks::core
