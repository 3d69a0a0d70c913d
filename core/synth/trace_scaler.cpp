#include "core/synth/trace_scaler.h"

#include "core/synth/json_writer.h"
#include "core/synth/output_sink.h"
#include "core/synth/parsed_trace.h"
#include "core/synth/trace_input.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace ks::core {

namespace {

    // How copy k differs from the input.
    struct CopyOffsets
    {
        std::int64_t shiftUs = 0;
        std::int64_t correlation = 0;
        std::int64_t externalId = 0;
        std::int64_t evIdx = 0;
        std::int64_t python = 0;
        std::int64_t sequence = 0;
        std::int64_t step = 0;
    };

    CopyOffsets offsetsFor(const ParsedTrace& trace, int copy)
    {
        const std::int64_t k = copy;
        const std::int64_t span = trace.haveTime ? trace.maxEndNs - trace.minTsNs : 0;
        // A small gap (1 % of the span, at least 100 us) so copies do not touch;
        // whole microseconds, so timestamps keep their original decimals.
        const std::int64_t gap = std::max<std::int64_t>(100'000, span / 100);
        CopyOffsets offsets;
        offsets.shiftUs = k * ((span + gap + 999) / 1000);
        offsets.correlation = k * (trace.maxCorrelation + 1);
        offsets.externalId = k * (trace.maxExternalId + 1);
        offsets.evIdx = k * (trace.maxEvIdx + 1);
        offsets.python = k * (trace.maxPythonId + 1);
        offsets.sequence = k * (trace.maxSequence + 1);
        offsets.step = trace.haveSteps ? k * (trace.maxStep - trace.minStep + 1) : 0;
        return offsets;
    }

    class ScaledTraceWriter
    {
    public:
        ScaledTraceWriter(JsonWriter& out, const ParsedTrace& trace)
            : m_out(out)
            , m_trace(trace)
        {
        }

        void write(int copies)
        {
            m_out.raw("{");
            for (std::size_t i = 0; i < m_trace.eventsPosition; ++i)
                topLevel(m_trace.topLevel[i]);
            m_out.raw(m_topLevelKeys++ > 0 ? ",\n  \"traceEvents\": [" : "\n  \"traceEvents\": [");
            for (int copy = 0; copy < copies && m_out.ok(); ++copy) {
                const CopyOffsets offsets = offsetsFor(m_trace, copy);
                for (const SourceEvent& event : m_trace.events)
                    if (copy == 0 || !event.metadata)
                        writeEvent(event, offsets);
            }
            m_out.raw("\n  ]");
            for (std::size_t i = m_trace.eventsPosition; i < m_trace.topLevel.size(); ++i)
                topLevel(m_trace.topLevel[i]);
            m_out.raw("\n}\n");
        }

        std::uint64_t events() const { return m_events; }

    private:
        void topLevel(const RawField& field)
        {
            m_out.raw(m_topLevelKeys++ > 0 ? ",\n  " : "\n  ");
            m_out.quoted(field.key);
            m_out.raw(": ");
            m_out.raw(field.value);
        }

        void writeEvent(const SourceEvent& event, const CopyOffsets& offsets)
        {
            m_out.raw(m_events == 0 ? "\n  {\n    " : ",\n  {\n    ");
            ++m_events;
            for (std::uint32_t i = 0; i < event.fieldCount; ++i) {
                if (i > 0)
                    m_out.raw(", ");
                const RawField& field = m_trace.fields[event.firstField + i];
                m_out.quoted(field.key);
                m_out.raw(": ");
                if (field.role == FieldRole::Args)
                    writeArgs(event, offsets);
                else if (event.metadata)
                    m_out.raw(field.value); // metadata is written once, unchanged
                else
                    writeValue(field, offsets);
            }
            m_out.raw("\n  }");
        }

        void writeArgs(const SourceEvent& event, const CopyOffsets& offsets)
        {
            if (event.argCount == 0) {
                m_out.raw("{}");
                return;
            }
            m_out.raw("{\n      ");
            for (std::uint32_t i = 0; i < event.argCount; ++i) {
                if (i > 0)
                    m_out.raw(", ");
                const RawField& arg = m_trace.args[event.firstArg + i];
                m_out.quoted(arg.key);
                m_out.raw(": ");
                if (event.metadata)
                    m_out.raw(arg.value);
                else
                    writeValue(arg, offsets);
            }
            m_out.raw("\n    }");
        }

        void writeValue(const RawField& field, const CopyOffsets& offsets)
        {
            switch (field.role) {
            case FieldRole::Ts:
                shiftedTimestamp(field.value, offsets.shiftUs);
                return;
            case FieldRole::Name:
                renamedStep(field.value, offsets.step);
                return;
            case FieldRole::FlowId:
            case FieldRole::Correlation:
            case FieldRole::WaitCorrelation:
                offsetId(field.value, offsets.correlation, false);
                return;
            case FieldRole::ExternalId:
                offsetId(field.value, offsets.externalId, false);
                return;
            case FieldRole::EvIdx:
                offsetId(field.value, offsets.evIdx, true); // indices start at 0
                return;
            case FieldRole::PythonId:
            case FieldRole::PythonParentId:
                offsetId(field.value, offsets.python, false);
                return;
            case FieldRole::SequenceNumber:
                offsetId(field.value, offsets.sequence, true);
                return;
            default:
                m_out.raw(field.value);
            }
        }

        // Ids <= 0 (or < 0 for indices) mean "none" in Kineto (-1) and stay as they are.
        void offsetId(std::string_view raw, std::int64_t offset, bool zeroIsId)
        {
            std::int64_t value = 0;
            if (offset != 0 && parseIntegerToken(raw, value) && (value > 0 || (zeroIsId && value == 0)))
                m_out.integer(value + offset);
            else
                m_out.raw(raw);
        }

        // Shifts by whole microseconds on the integer part of the text, so the
        // decimals (Kineto's ns digits) are kept exactly.
        void shiftedTimestamp(std::string_view raw, std::int64_t shiftUs)
        {
            if (shiftUs == 0) {
                m_out.raw(raw);
                return;
            }
            std::int64_t whole = 0;
            const std::size_t dot = raw.find('.');
            const std::string_view integer = raw.substr(0, dot);
            const std::string_view decimals =
                dot == std::string_view::npos ? std::string_view() : raw.substr(dot);
            if (!raw.empty() && raw.front() != '-' && parseIntegerToken(integer, whole)
                && decimals.find_first_of("eE") == std::string_view::npos) {
                m_out.integer(whole + shiftUs);
                m_out.raw(decimals);
            } else if (!raw.empty() && raw.front() != '"') {
                // Negative or exponent notation: rare; microsecond precision is enough.
                m_out.fixed(std::strtod(std::string(raw).c_str(), nullptr) + static_cast<double>(shiftUs), 3);
            } else {
                m_out.raw(raw);
            }
        }

        void renamedStep(std::string_view raw, std::int64_t offset)
        {
            constexpr std::string_view kStep = "\"ProfilerStep#";
            std::int64_t step = 0;
            if (offset != 0 && raw.size() > kStep.size() + 1 && raw.substr(0, kStep.size()) == kStep
                && raw.back() == '"'
                && parseIntegerToken(raw.substr(kStep.size(), raw.size() - kStep.size() - 1), step)) {
                m_out.raw(kStep);
                m_out.integer(step + offset);
                m_out.ch('"');
            } else {
                m_out.raw(raw);
            }
        }

        JsonWriter& m_out;
        const ParsedTrace& m_trace;
        std::uint64_t m_events = 0;
        std::size_t m_topLevelKeys = 0;
    };

    Error invalid(const std::string& message, const std::string& path = {})
    {
        return Error { ErrorCode::InvalidArgument, message, path, {} };
    }

} // namespace

std::string scaledTracePath(const ScaleOptions& options)
{
    std::string stem = std::filesystem::path(options.inputPath).filename().string();
    for (const std::string_view suffix : { ".gz", ".json", ".pt.trace" })
        if (stem.size() > suffix.size()
            && stem.compare(stem.size() - suffix.size(), suffix.size(), suffix) == 0)
            stem.resize(stem.size() - suffix.size());
    const std::string name =
        stem + ".x" + std::to_string(options.copies) + ".pt.trace.json" + (options.gzip ? ".gz" : "");
    return (std::filesystem::path(options.outDir) / name).string();
}

Result<WrittenFile> scaleTrace(const ScaleOptions& options)
{
    if (options.copies < 1 || options.copies > 100000)
        return invalid("copies must be between 1 and 100000");
    if (options.gzipLevel < 0 || options.gzipLevel > 9)
        return invalid("gzip level must be between 0 and 9");
    if (options.outDir.empty())
        return invalid("no output folder given");
    auto text = readTraceText(options.inputPath);
    if (!text)
        return text.error();
    auto parsed = parseTraceForScaling(std::move(text).value(), options.inputPath);
    if (!parsed)
        return parsed.error();

    std::error_code ec;
    std::filesystem::create_directories(options.outDir, ec);
    if (ec || !std::filesystem::is_directory(options.outDir))
        return invalid("cannot create output folder: " + (ec ? ec.message() : std::string("not a folder")),
            options.outDir);
    const std::string path = scaledTracePath(options);
    if (std::filesystem::equivalent(path, options.inputPath, ec))
        return invalid("output would overwrite the input", path);
    auto opened = openOutputFile(path, options.gzip, options.gzipLevel);
    if (!opened)
        return opened.error();
    OutputSink& sink = *opened.value();
    JsonWriter json(sink);
    ScaledTraceWriter writer(json, *parsed.value());
    writer.write(options.copies);
    return finishTraceFile(json, std::move(opened).value(), path, writer.events());
}

} // namespace ks::core
