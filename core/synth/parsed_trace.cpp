#include "core/synth/parsed_trace.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <utility>

namespace ks::core {

namespace {

    using namespace simdjson;

    Error parseError(ErrorCode code, const std::string& path, const std::string& message)
    {
        Error error;
        error.code = code;
        error.path = path;
        error.message = message;
        return error;
    }

    std::string_view trimRight(std::string_view text)
    {
        while (!text.empty()
            && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
            text.remove_suffix(1);
        return text;
    }

    // The exact JSON text of any value (simdjson 3.0 has raw_json() only on
    // objects and arrays). The input was validated beforehand.
    error_code rawValue(ondemand::value value, std::string_view& out)
    {
        ondemand::json_type type;
        if (auto error = value.type().get(type))
            return error;
        if (type == ondemand::json_type::object) {
            ondemand::object object;
            if (auto error = value.get_object().get(object))
                return error;
            return object.raw_json().get(out);
        }
        if (type == ondemand::json_type::array) {
            ondemand::array array;
            if (auto error = value.get_array().get(array))
                return error;
            return array.raw_json().get(out);
        }
        out = trimRight(value.raw_json_token());
        return SUCCESS;
    }

    FieldRole eventRole(std::string_view key)
    {
        if (key == "ts")
            return FieldRole::Ts;
        if (key == "id")
            return FieldRole::FlowId;
        if (key == "name")
            return FieldRole::Name;
        if (key == "args")
            return FieldRole::Args;
        return FieldRole::Other;
    }

    FieldRole argRole(std::string_view key)
    {
        if (key == "correlation")
            return FieldRole::Correlation;
        if (key == "wait_on_cuda_event_record_corr_id")
            return FieldRole::WaitCorrelation;
        if (key == "External id")
            return FieldRole::ExternalId;
        if (key == "Ev Idx")
            return FieldRole::EvIdx;
        if (key == "Python id")
            return FieldRole::PythonId;
        if (key == "Python parent id")
            return FieldRole::PythonParentId;
        if (key == "Sequence number")
            return FieldRole::SequenceNumber;
        return FieldRole::Other;
    }

    class Parser
    {
    public:
        Parser(ParsedTrace& trace, const std::string& path)
            : m_trace(trace)
            , m_path(path)
        {
        }

        std::optional<Error> run()
        {
            ondemand::document doc;
            if (auto error = m_parser.iterate(m_trace.text).get(doc))
                return parseError(
                    ErrorCode::NotJson, m_path, std::string("not JSON: ") + error_message(error));
            ondemand::object root;
            if (const auto error = doc.get_object().get(root)) {
                if (error == INCORRECT_TYPE)
                    return parseError(ErrorCode::WrongType, m_path, "the top level is not a JSON object");
                return parseError(
                    ErrorCode::NotJson, m_path, std::string("not JSON: ") + error_message(error));
            }
            bool sawEvents = false;
            for (auto result : root) {
                ondemand::field field;
                std::string_view key;
                if (auto error = std::move(result).get(field); error || field.unescaped_key().get(key))
                    return parseError(ErrorCode::NotJson, m_path, "malformed JSON in the top-level object");
                if (key == "traceEvents") {
                    sawEvents = true;
                    m_trace.eventsPosition = m_trace.topLevel.size();
                    if (auto failure = events(field.value()))
                        return failure;
                    continue;
                }
                RawField raw { intern(key), {}, FieldRole::Other };
                if (rawValue(field.value(), raw.value))
                    return parseError(ErrorCode::NotJson, m_path,
                        "malformed value of top-level key \"" + std::string(key) + "\"");
                m_trace.topLevel.push_back(raw);
            }
            if (!sawEvents)
                return parseError(
                    ErrorCode::NoTraceEvents, m_path, "no traceEvents array: not a Kineto trace");
            return std::nullopt;
        }

    private:
        std::string_view intern(std::string_view key) { return *m_trace.keys.emplace(key).first; }

        std::optional<Error> events(ondemand::value value)
        {
            ondemand::array array;
            if (value.get_array().get(array))
                return parseError(ErrorCode::WrongType, m_path, "traceEvents is not an array");
            std::size_t index = 0;
            for (auto result : array) {
                ondemand::object object;
                if (const auto error = result.get_object().get(object)) {
                    const std::string where = "traceEvents[" + std::to_string(index) + "]";
                    if (error == INCORRECT_TYPE)
                        return parseError(ErrorCode::WrongType, m_path, where + " is not an object");
                    return parseError(ErrorCode::NotJson, m_path,
                        "malformed JSON at " + where + ": " + error_message(error));
                }
                if (!event(object))
                    return parseError(ErrorCode::NotJson, m_path,
                        "malformed JSON in traceEvents[" + std::to_string(index) + "]");
                ++index;
            }
            return std::nullopt;
        }

        bool event(ondemand::object object)
        {
            SourceEvent event;
            event.firstField = static_cast<std::uint32_t>(m_trace.fields.size());
            event.firstArg = static_cast<std::uint32_t>(m_trace.args.size());
            std::int64_t ts = 0;
            std::int64_t dur = 0;
            bool hasTs = false;
            for (auto result : object) {
                ondemand::field field;
                std::string_view key;
                if (std::move(result).get(field) || field.unescaped_key().get(key))
                    return false;
                RawField raw { intern(key), {}, eventRole(key) };
                ondemand::json_type type;
                if (field.value().type().get(type))
                    return false;
                if (raw.role == FieldRole::Args && type == ondemand::json_type::object) {
                    ondemand::object args;
                    if (field.value().get_object().get(args) || !argsObject(args))
                        return false;
                    event.argsObject = true;
                } else if (rawValue(field.value(), raw.value)) {
                    return false;
                }
                if (raw.role == FieldRole::Args && !event.argsObject)
                    raw.role = FieldRole::Other; // args that is not an object: copied as is
                if (key == "ph")
                    event.metadata = raw.value == "\"M\"";
                else if (raw.role == FieldRole::Ts)
                    hasTs = parseMicrosecondsToken(raw.value, ts);
                else if (key == "dur")
                    parseMicrosecondsToken(raw.value, dur);
                noteIds(raw);
                m_trace.fields.push_back(raw);
            }
            event.fieldCount = static_cast<std::uint32_t>(m_trace.fields.size()) - event.firstField;
            event.argCount = static_cast<std::uint32_t>(m_trace.args.size()) - event.firstArg;
            if (hasTs && !event.metadata) {
                const std::int64_t end = ts + std::max<std::int64_t>(dur, 0);
                m_trace.minTsNs = m_trace.haveTime ? std::min(m_trace.minTsNs, ts) : ts;
                m_trace.maxEndNs = m_trace.haveTime ? std::max(m_trace.maxEndNs, end) : end;
                m_trace.haveTime = true;
            }
            m_trace.events.push_back(event);
            return true;
        }

        bool argsObject(ondemand::object args)
        {
            for (auto result : args) {
                ondemand::field field;
                std::string_view key;
                if (std::move(result).get(field) || field.unescaped_key().get(key))
                    return false;
                RawField raw { intern(key), {}, argRole(key) };
                if (rawValue(field.value(), raw.value))
                    return false;
                noteIds(raw);
                m_trace.args.push_back(raw);
            }
            return true;
        }

        void noteIds(const RawField& field)
        {
            std::int64_t value = 0;
            if (field.role == FieldRole::Name) {
                constexpr std::string_view kStep = "\"ProfilerStep#";
                if (field.value.substr(0, kStep.size()) == kStep && field.value.back() == '"'
                    && parseIntegerToken(
                        field.value.substr(kStep.size(), field.value.size() - kStep.size() - 1), value)) {
                    m_trace.minStep = m_trace.haveSteps ? std::min(m_trace.minStep, value) : value;
                    m_trace.maxStep = m_trace.haveSteps ? std::max(m_trace.maxStep, value) : value;
                    m_trace.haveSteps = true;
                }
                return;
            }
            if (field.role == FieldRole::Other || field.role == FieldRole::Ts || field.role == FieldRole::Args
                || !parseIntegerToken(field.value, value))
                return;
            switch (field.role) {
            case FieldRole::FlowId:
            case FieldRole::Correlation:
            case FieldRole::WaitCorrelation:
                m_trace.maxCorrelation = std::max(m_trace.maxCorrelation, value);
                break;
            case FieldRole::ExternalId:
                m_trace.maxExternalId = std::max(m_trace.maxExternalId, value);
                break;
            case FieldRole::EvIdx:
                m_trace.maxEvIdx = std::max(m_trace.maxEvIdx, value);
                break;
            case FieldRole::PythonId:
            case FieldRole::PythonParentId:
                m_trace.maxPythonId = std::max(m_trace.maxPythonId, value);
                break;
            case FieldRole::SequenceNumber:
                m_trace.maxSequence = std::max(m_trace.maxSequence, value);
                break;
            default:
                break;
            }
        }

        ParsedTrace& m_trace;
        const std::string& m_path;
        ondemand::parser m_parser;
    };

} // namespace

bool parseIntegerToken(std::string_view token, std::int64_t& value)
{
    if (token.empty())
        return false;
    const auto result = std::from_chars(token.data(), token.data() + token.size(), value);
    return result.ec == std::errc() && result.ptr == token.data() + token.size();
}

bool parseMicrosecondsToken(std::string_view token, std::int64_t& ns)
{
    const bool negative = !token.empty() && token.front() == '-';
    if (negative)
        token.remove_prefix(1);
    const std::size_t dot = token.find('.');
    std::int64_t whole = 0;
    if (!parseIntegerToken(token.substr(0, dot), whole))
        return false;
    std::int64_t fraction = 0;
    if (dot != std::string_view::npos) {
        std::string_view digits = token.substr(dot + 1);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
            return false;
        for (std::size_t i = 0; i < 3; ++i)
            fraction = fraction * 10 + (i < digits.size() ? digits[i] - '0' : 0);
    }
    ns = whole * 1000 + fraction;
    if (negative)
        ns = -ns;
    return true;
}

Result<std::unique_ptr<ParsedTrace>> parseTraceForScaling(
    simdjson::padded_string text, const std::string& path)
{
    auto trace = std::make_unique<ParsedTrace>();
    trace->text = std::move(text);
    // On-demand copies raw tokens it was not asked to read without checking
    // them (a bare `tru` inside an array): validate the whole input first so
    // invalid input never becomes invalid output. Inputs here are small.
    {
        simdjson::dom::parser validator;
        if (const auto error = validator.parse(trace->text).error()) {
            if (error == simdjson::CAPACITY)
                return parseError(ErrorCode::TooLarge, path, "too large to scale (over 4 GiB of JSON)");
            return parseError(
                ErrorCode::NotJson, path, std::string("not JSON: ") + simdjson::error_message(error));
        }
    }
    Parser parser(*trace, path);
    if (auto error = parser.run())
        return *error;
    return trace;
}

} // namespace ks::core
