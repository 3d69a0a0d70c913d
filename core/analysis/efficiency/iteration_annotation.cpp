#include "core/analysis/efficiency/iteration_annotation.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <tuple>

namespace ks::core {

namespace {

    bool isDigit(char c)
    {
        return c >= '0' && c <= '9';
    }

    bool isWord(char c)
    {
        return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    }

    // A cursor over the name, matching literals and digit runs as the patterns do.
    struct Cursor
    {
        std::string_view text;
        std::size_t at = 0;

        bool literal(std::string_view s)
        {
            if (text.substr(at, s.size()) != s)
                return false;
            at += s.size();
            return true;
        }

        std::optional<double> number()
        {
            const std::size_t from = at;
            while (at < text.size() && isDigit(text[at]))
                ++at;
            if (at == from)
                return std::nullopt;
            double v = 0;
            for (std::size_t i = from; i < at; ++i)
                v = v * 10 + (text[i] - '0');
            return v;
        }
    };

    // `(sqAskBsqsqCsqskD)`: the four sums of one request group.
    bool sums(Cursor& c, double& sq, double& sk, double& sqsq, double& sqsk)
    {
        std::optional<double> a, b, d, e;
        if (!c.literal("(sq") || !(a = c.number()) || !c.literal("sk") || !(b = c.number())
            || !c.literal("sqsq") || !(d = c.number()) || !c.literal("sqsk") || !(e = c.number())
            || !c.literal(")"))
            return false;
        sq = *a;
        sk = *b;
        sqsq = *d;
        sqsk = *e;
        return true;
    }

    // VLLM_DETAILED_PATTERN (annotation_utils.py): execute_\d+_context_\d+(sq…)_generation_\d+(sq…),
    // matched at the start. _fill_vllm_detailed reads the same numbers by position
    // (tokens 5-8 and 13-16 of its split), which is what the pattern's groups hold.
    std::optional<ChunkStats> vllmDetailed(std::string_view name)
    {
        Cursor c { name };
        ChunkStats s;
        if (!c.literal("execute_") || !c.number() || !c.literal("_context_") || !c.number()
            || !sums(c, s.cSq, s.cSk, s.cSqSq, s.cSqSk) || !c.literal("_generation_") || !c.number()
            || !sums(c, s.gSq, s.gSk, s.gSqSq, s.gSqSk))
            return std::nullopt;
        return s;
    }

    // SGLANG_DETAILED_PATTERN: step\[(?:EXTEND|DECODE|MIXED)\b[^\]]*sqsq=\d+[^\]]*\] at the start;
    // _fill_sglang_detailed then reads every key=digits pair between the first '[' and the last
    // ']' (a later key wins, as dict() keeps the last), absent keys counting 0.
    std::optional<ChunkStats> sglangDetailed(std::string_view name)
    {
        Cursor c { name };
        if (!c.literal("step[") || !(c.literal("EXTEND") || c.literal("DECODE") || c.literal("MIXED")))
            return std::nullopt;
        if (c.at < name.size() && isWord(name[c.at])) // \b after the mode word
            return std::nullopt;
        const std::size_t close = name.find(']', c.at);
        if (close == std::string_view::npos)
            return std::nullopt;
        const std::string_view head = name.substr(c.at, close - c.at);
        bool hasSqSq = false;
        for (std::size_t p = head.find("sqsq="); p != std::string_view::npos; p = head.find("sqsq=", p + 1))
            hasSqSq = hasSqSq || (p + 5 < head.size() && isDigit(head[p + 5]));
        if (!hasSqSq)
            return std::nullopt;
        const std::string_view body = name.substr(name.find('[') + 1, name.rfind(']') - name.find('[') - 1);
        std::map<std::string, double, std::less<>> kv;
        for (std::size_t i = 0; i < body.size();) {
            if (!isWord(body[i])) {
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j < body.size() && isWord(body[j]))
                ++j;
            if (j + 1 < body.size() && body[j] == '=' && isDigit(body[j + 1])) {
                Cursor value { body, j + 1 };
                kv[std::string(body.substr(i, j - i))] = *value.number();
                i = value.at;
            } else {
                i = j;
            }
        }
        const auto get = [&kv](std::string_view key) {
            const auto it = kv.find(key);
            return it == kv.end() ? 0.0 : it->second;
        };
        return ChunkStats { get("c_sq"), get("c_sk"), get("c_sqsq"), get("c_sqsk"), get("g_sq"), get("g_sk"),
            get("g_sqsq"), get("g_sqsk") };
    }

} // namespace

std::optional<ChunkStats> chunkStatsOf(std::string_view annotation)
{
    // IterationAnnotation.FORMATS' order: vLLM's detailed form first, SGLang's after.
    if (auto s = vllmDetailed(annotation))
        return s;
    return sglangDetailed(annotation);
}

IterationAnnotations::IterationAnnotations(const RankTrace& trace)
    : m_trace(trace)
{
    for (const Track& track : trace.tracks) {
        if (track.kind != TrackKind::CpuThread)
            continue;
        for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s)
            if (trace.sliceCategory(s) == "user_annotation" && chunkStatsOf(trace.sliceName(s)))
                m_spans.push_back(s);
    }
    std::sort(m_spans.begin(), m_spans.end(), [&trace](std::uint32_t a, std::uint32_t b) {
        return std::tuple(trace.slices.start[a], a) < std::tuple(trace.slices.start[b], b);
    });
}

std::string_view IterationAnnotations::around(std::uint32_t slice) const
{
    const TimeNs start = m_trace.slices.start[slice], end = m_trace.slices.end(slice);
    for (const std::uint32_t a : m_spans) {
        if (m_trace.slices.start[a] > start)
            break;
        if (end <= m_trace.slices.end(a))
            return m_trace.sliceName(a);
    }
    return {};
}

} // namespace ks::core
