// The parser's hot code, compiled once per kernel (see parser_kernel.h and
// core/CMakeLists.txt): KS_PARSER_KERNEL names this copy's namespace, and the
// build's target flags decide which simdjson implementation "ondemand" is
// (fallback for the baseline, haswell with -march=haswell). simdjson's on-demand
// API is header-inline and only for the implementation the compiler targets, so
// its own run-time dispatch does not reach it: hence two copies of this file.

#include "core/io/json/event_parser_kernel.h"

#include "core/io/json/fixed_point.h"
#include "core/io/json/json_repair.h"

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#ifndef KS_PARSER_KERNEL
#error "KS_PARSER_KERNEL must name the kernel's namespace (core/CMakeLists.txt sets it)"
#endif

namespace ks::core::KS_PARSER_KERNEL {

namespace od = simdjson::ondemand;

namespace {

    // Keys are plain ASCII in Kineto traces; their raw text ends at the next quote.
    // Keys are short, so a plain loop beats a memchr call per key.
    std::string_view rawKey(od::field& field)
    {
        const char* k = field.key().raw();
        for (std::size_t n = 0; n < 256; ++n)
            if (k[n] == '"')
                return std::string_view(k, n);
        return {};
    }

    constexpr std::uint64_t kInt64Max = 9223372036854775807ull;

    bool isIntegerToken(std::string_view token)
    {
        return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
            return (c >= '0' && c <= '9') || c == '-';
        });
    }

    // An integer token beyond int64: `large`, and its `value` when it fits uint64.
    struct LargeInteger
    {
        bool large = false;
        std::optional<std::int64_t> value;
    };

    // Integers beyond int64 (uint64 ids: "Comms Id", some producers' correlation ids)
    // are read as the id less 2^63, so that both ends of a link still pair and the id
    // stays non-negative (-1 means "none" to the store); beyond 64 bits, not at all.
    // Either way counted on the event for the import diagnostics.
    LargeInteger readLargeInteger(od::value value, RawEvent& e, std::string_view fieldName)
    {
        std::uint64_t u = 0;
        const bool fits = !value.get_uint64().get(u);
        if (!fits && !isIntegerToken(value.raw_json_token()))
            return {}; // a real number or not a number: the callers read it so
        if (e.largeIntegers++ == 0)
            e.largeIntegerField = fieldName;
        if (!fits)
            return { true, std::nullopt };
        return { true, static_cast<std::int64_t>(u & kInt64Max) };
    }

    // Reads pid/tid: integers, or strings (then kept as names).
    void readThreadField(od::value value, std::int64_t& number, bool& isName, std::string_view& text,
        RawEvent& e, std::string_view fieldName)
    {
        od::json_type type;
        if (value.type().get(type))
            return;
        if (type == od::json_type::number) {
            std::int64_t v = 0;
            if (!value.get_int64().get(v)) {
                number = v;
                return;
            }
            if (const LargeInteger large = readLargeInteger(value, e, fieldName); large.large) {
                if (large.value)
                    number = *large.value;
                return;
            }
            // A real-valued id: truncated when it fits int64 (casting one that does not is undefined).
            double d = 0;
            if (!value.get_double().get(d) && std::fabs(d) < 9.2e18) {
                number = static_cast<std::int64_t>(d);
                return;
            }
        } else if (type == od::json_type::string) {
            if (!value.get_string().get(text)) {
                isName = true;
                return;
            }
        }
        if (e.wrongTypeField.empty())
            e.wrongTypeField = fieldName;
    }

    // ts/dur: exact nanoseconds from the number's text. Strings holding numbers are
    // accepted but reported.
    std::optional<std::int64_t> readTime(
        od::value value, RawEvent& e, std::string_view fieldName, bool& fractional)
    {
        od::json_type type;
        if (value.type().get(type))
            return std::nullopt;
        std::string_view text;
        if (type == od::json_type::number) {
            text = value.raw_json_token();
        } else if (type == od::json_type::string) {
            if (value.get_string().get(text))
                return std::nullopt;
            if (e.wrongTypeField.empty())
                e.wrongTypeField = fieldName;
        } else {
            if (e.wrongTypeField.empty())
                e.wrongTypeField = fieldName;
            return std::nullopt;
        }
        // A plain loop: find_first_of calls memchr once per character of the number.
        fractional =
            std::any_of(text.begin(), text.end(), [](char c) { return c == '.' || c == 'e' || c == 'E'; });
        auto ns = microsecondsTextToNanoseconds(text);
        if (!ns && type == od::json_type::number)
            e.timeOutOfRange = true; // a JSON number, but beyond int64 ns
        else if (!ns && e.wrongTypeField.empty())
            e.wrongTypeField = fieldName;
        return ns;
    }

    // One args member the analyses need, read straight from simdjson's value.
    void readTypedArg(od::value value, TypedArgKey key, std::string_view name, RawEvent& e)
    {
        TypedArgs& typed = e.typed;
        od::json_type type;
        if (value.type().get(type))
            return;
        if (type == od::json_type::string) {
            std::string_view s;
            if (!value.get_string().get(s))
                assignTextArg(typed, key, std::string(s));
            return;
        }
        if (type == od::json_type::array && key == TypedArgKey::ProcessGroupRanks) {
            // A JSON array instead of a string: kept as the same list text ("[0, 1]").
            od::array list;
            if (value.get_array().get(list))
                return;
            std::string text = "[";
            for (auto item : list) {
                std::int64_t rank = 0;
                if (std::move(item).get_int64().get(rank)) // NOLINT(performance-move-const-arg)
                    return; // not a plain list of ranks: as if absent
                text += (text.size() > 1 ? ", " : "") + std::to_string(rank);
            }
            typed.processGroupRanks = text + "]";
            return;
        }
        if (type == od::json_type::array && isDimsArg(key)) {
            od::array list;
            if (value.get_array().get(list))
                return;
            LaunchDims dims {};
            std::size_t count = 0;
            for (auto item : list) {
                std::int64_t n = 0;
                // NOLINTNEXTLINE(performance-move-const-arg)
                if (count == dims.size() || std::move(item).get_int64().get(n)
                    || n < std::numeric_limits<std::int32_t>::min()
                    || n > std::numeric_limits<std::int32_t>::max())
                    return; // not three integers: as if absent
                dims[count++] = static_cast<std::int32_t>(n);
            }
            if (count == dims.size())
                assignDimsArg(typed, key, dims);
            return;
        }
        if (type != od::json_type::number)
            return;
        if (!isRealArg(key)) {
            std::int64_t i = 0;
            if (!value.get_int64().get(i)) {
                assignIntArg(typed, key, i);
                return;
            }
            if (const LargeInteger large = readLargeInteger(value, e, name); large.large) {
                if (large.value)
                    assignIntArg(typed, key, *large.value);
                return;
            }
        }
        double d = 0;
        if (!value.get_double().get(d))
            assignRealArg(typed, key, d);
    }

    // Walks the args object once: typed members are read as values, and the
    // object's raw text is delimited by its first token and the parser's position
    // after its closing brace (raw_json() would consume the object unread).
    bool readArgs(od::value value, od::document& doc, RawEvent& e)
    {
        const char* begin = value.raw_json_token().data();
        od::object args;
        if (value.get_object().get(args))
            return false;
        for (auto memberResult : args) {
            od::field member;
            if (std::move(memberResult).get(member))
                return false;
            const TypedArgKey key = typedArgKey(rawKey(member));
            if (key != TypedArgKey::None)
                readTypedArg(member.value(), key, rawKey(member), e);
        }
        const char* end = nullptr;
        if (doc.current_location().get(end))
            return false;
        while (end > begin && end[-1] != '}')
            --end;
        e.argsText = std::string_view(begin, static_cast<std::size_t>(end - begin));
        return true;
    }

    bool readString(od::value value, std::string_view& out, RawEvent& e, std::string_view fieldName)
    {
        if (!value.get_string().get(out))
            return true;
        if (e.wrongTypeField.empty())
            e.wrongTypeField = fieldName;
        return false;
    }

    // One rank's (or parse worker's) parser; its simdjson buffers are reused across pieces.
    class Parser final : public EventParserKernel
    {
    public:
        Parser(std::string path, RankBuilder* builder, RawEventSink* sink)
            : m_path(std::move(path))
            , m_builder(builder)
            , m_sink(sink)
        {
        }

        std::optional<Error> parsePrepared(std::vector<char>& buffer, std::size_t length,
            std::uint64_t firstIndex, std::uint64_t byteOffset) override;

    private:
        std::optional<Error> parseEvent(
            od::object object, od::document& doc, std::uint64_t eventIndex, std::uint64_t jsonOffset);
        Error errorAt(simdjson::error_code code, std::uint64_t byteOffset, std::uint64_t eventIndex) const;

        void deliver(RawEvent& e, od::document& doc)
        {
            if (m_nextRepair < m_repairs.size())
                noteRepairs(e, doc);
            if (m_builder)
                m_builder->add(e);
            else
                m_sink->take(e);
        }

        void noteRepairs(RawEvent& e, od::document& doc);

        std::string m_path;
        const char* m_data = nullptr; // the piece being parsed
        std::size_t m_length = 0;
        std::vector<json::JsonRepair> m_repairs; // the piece's, when simdjson rejected it as written
        std::size_t m_nextRepair = 0; // the first repair not yet counted on an event
        RankBuilder* m_builder; // one of these two
        RawEventSink* m_sink;
        od::parser m_parser;
    };

    Error Parser::errorAt(simdjson::error_code code, std::uint64_t byteOffset, std::uint64_t eventIndex) const
    {
        // simdjson reports a failed allocation as an error code, not an exception.
        if (code == simdjson::MEMALLOC)
            return Error { ErrorCode::OutOfMemory, "not enough memory", m_path, {} };
        return Error { ErrorCode::NotJson,
            std::string("not JSON: ") + simdjson::error_message(code) + " in traceEvents["
                + std::to_string(eventIndex) + "]",
            m_path, byteOffset };
    }

    // The repairs that lie before the parser's position belong to the element just read.
    void Parser::noteRepairs(RawEvent& e, od::document& doc)
    {
        const char* end = nullptr;
        if (doc.current_location().get(end))
            end = m_data + m_length;
        const auto endOffset = static_cast<std::size_t>(end - m_data);
        for (; m_nextRepair < m_repairs.size() && m_repairs[m_nextRepair].offset < endOffset; ++m_nextRepair)
            ++(m_repairs[m_nextRepair].kind == json::JsonRepairKind::InvalidUtf8 ? e.invalidUtf8Bytes
                                                                                 : e.controlCharacters);
    }

    std::optional<Error> Parser::parsePrepared(
        std::vector<char>& buffer, std::size_t length, std::uint64_t firstIndex, std::uint64_t byteOffset)
    {
        char* const data = buffer.data();
        m_data = data;
        m_length = length;
        m_repairs.clear();
        m_nextRepair = 0;
        od::document doc;
        auto rejected = m_parser.iterate(data, length, buffer.size()).get(doc);
        if (rejected == simdjson::UTF8_ERROR || rejected == simdjson::UNESCAPED_CHARS) {
            // What real producers write (names cut inside a UTF-8 character, raw newlines
            // in torch._dynamo's strings): rewritten byte for byte, then read again.
            m_repairs = json::repairJsonText(data, length);
            if (!m_repairs.empty())
                rejected = m_parser.iterate(data, length, buffer.size()).get(doc);
        }
        if (rejected)
            return errorAt(rejected, byteOffset, firstIndex);
        od::array array;
        if (auto err = doc.get_array().get(array))
            return errorAt(err, byteOffset, firstIndex);
        std::uint64_t index = firstIndex;
        for (auto element : array) {
            od::value value;
            auto where = [&]() -> std::uint64_t {
                const char* loc = nullptr;
                if (!doc.current_location().get(loc))
                    return byteOffset + static_cast<std::uint64_t>(loc - data - 1);
                return byteOffset;
            };
            // simdjson_result::get is &&-qualified: the move is needed, whatever the check says.
            if (auto err = std::move(element).get(value)) // NOLINT(performance-move-const-arg)
                return errorAt(err, where(), index);
            // The element's first byte in the inflated JSON: ArgsIndex finds it again by this.
            const std::uint64_t jsonOffset =
                byteOffset + static_cast<std::uint64_t>(value.raw_json_token().data() - data - 1);
            od::object object;
            if (value.get_object().get(object)) {
                RawEvent e;
                e.eventIndex = index;
                e.jsonOffset = jsonOffset;
                e.wrongTypeField = "event (not an object)";
                deliver(e, doc);
            } else if (auto err = parseEvent(object, doc, index, jsonOffset)) {
                err->byteOffset = where();
                return err;
            }
            ++index;
        }
        return std::nullopt;
    }

    std::optional<Error> Parser::parseEvent(
        od::object object, od::document& doc, std::uint64_t eventIndex, std::uint64_t jsonOffset)
    {
        RawEvent e;
        e.eventIndex = eventIndex;
        e.jsonOffset = jsonOffset;
        for (auto fieldResult : object) {
            od::field field;
            if (auto err = std::move(fieldResult).get(field))
                return errorAt(err, 0, eventIndex);
            const std::string_view key = rawKey(field);
            od::value value = field.value();
            switch (key.size()) {
            case 2:
                if (key == "ph") {
                    std::string_view ph;
                    if (readString(value, ph, e, "ph") && !ph.empty())
                        e.phase = ph[0];
                } else if (key == "ts") {
                    e.tsNs = readTime(value, e, "ts", e.tsFractional);
                } else if (key == "id") {
                    e.hasId = true;
                    std::int64_t v = 0;
                    if (!value.get_int64().get(v)) {
                        e.idValue = v;
                    } else if (const LargeInteger large = readLargeInteger(value, e, "id"); large.value) {
                        e.idValue = *large.value;
                    } else if (!value.get_string().get(e.idText)) {
                        e.idIsString = true;
                    } else {
                        e.hasId = false;
                        if (e.wrongTypeField.empty())
                            e.wrongTypeField = "id";
                    }
                } else if (key == "bp") {
                    std::string_view bp;
                    if (readString(value, bp, e, "bp") && !bp.empty())
                        e.bindPoint = bp[0];
                }
                break;
            case 1:
                if (key == "s") {
                    std::string_view s;
                    if (readString(value, s, e, "s") && !s.empty())
                        e.scope = s[0];
                }
                break;
            case 3:
                if (key == "pid")
                    readThreadField(value, e.key.pid, e.key.pidIsName, e.pidText, e, "pid"), e.hasPid = true;
                else if (key == "tid")
                    readThreadField(value, e.key.tid, e.key.tidIsName, e.tidText, e, "tid"), e.hasTid = true;
                else if (key == "cat")
                    e.hasCategory = readString(value, e.category, e, "cat");
                else if (key == "dur")
                    e.durNs = readTime(value, e, "dur", e.durFractional);
                break;
            case 4:
                if (key == "name") {
                    e.hasName = readString(value, e.name, e, "name");
                } else if (key == "args") {
                    e.hasArgs = readArgs(value, doc, e);
                    if (!e.hasArgs && e.wrongTypeField.empty())
                        e.wrongTypeField = "args";
                }
                break;
            default:
                break;
            }
        }
        deliver(e, doc);
        return std::nullopt;
    }

} // namespace

std::unique_ptr<EventParserKernel> makeEventParser(std::string path, RankBuilder* builder, RawEventSink* sink)
{
    return std::make_unique<Parser>(std::move(path), builder, sink);
}

} // namespace ks::core::KS_PARSER_KERNEL
