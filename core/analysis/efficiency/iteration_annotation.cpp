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

    // Whether the text holds `sqsq=` and a digit, the detailed patterns' `sqsq=\d+`.
    bool hasSqSqSum(std::string_view text)
    {
        for (std::size_t p = text.find("sqsq="); p != std::string_view::npos; p = text.find("sqsq=", p + 1))
            if (p + 5 < text.size() && isDigit(text[p + 5]))
                return true;
        return false;
    }

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
        if (!hasSqSqSum(name.substr(c.at, close - c.at)))
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

    // SGLang's native `step[EXTEND bs=B toks=T]` (or MIXED), as _fill_sglang_native's
    // `step\[(\w+)\s+bs=(\d+)(?:\s+toks=(\d+))?\]` reads it: no sums, so
    // InferenceAttention._parse_chunk_stats reconstructs a prefill of B equal requests,
    // c_sq = c_sk = T and Σsq² = Σsq·sk = T²/B. A DECODE has no key length (TraceLens gives bytes
    // without FLOPs): nullopt here, as for no tokens (TraceLens raises).
    std::optional<ChunkStats> sglangNative(std::string_view name)
    {
        Cursor c { name };
        if (!c.literal("step["))
            return std::nullopt;
        const std::size_t word = c.at;
        while (c.at < name.size() && isWord(name[c.at]))
            ++c.at;
        const std::string_view mode = name.substr(word, c.at - word);
        const auto spaces = [&c, name] {
            const std::size_t from = c.at;
            while (c.at < name.size() && std::isspace(static_cast<unsigned char>(name[c.at])) != 0)
                ++c.at;
            return c.at > from;
        };
        std::optional<double> bs, toks;
        if (mode.empty() || !spaces() || !c.literal("bs=") || !(bs = c.number()))
            return std::nullopt;
        const std::size_t beforeToks = c.at; // the optional `\s+toks=(\d+)`
        if (!(spaces() && c.literal("toks=") && (toks = c.number()))) {
            c.at = beforeToks;
            toks.reset();
        }
        if (!c.literal("]"))
            return std::nullopt;
        // SGLANG_NATIVE_PATTERN admits only these modes; DECODE has no key length.
        if (mode != "EXTEND" && mode != "MIXED")
            return std::nullopt;
        const double t = toks.value_or(0);
        if (t <= 0 || *bs <= 0)
            return std::nullopt;
        return ChunkStats { t, t, t * t / *bs, t * t / *bs, 0, 0, 0, 0 };
    }

    // _fill_atom's key=value pairs, `(\w+)=(\[[^\]]*\](?:\.\.\.\+\d+)?|\S+)` over the body: a value is a
    // bracketed list (maybe with a "...+N" tail) or a run of non-spaces; a later key wins (dict()).
    std::map<std::string, std::string, std::less<>> atomKeyValues(std::string_view body)
    {
        std::map<std::string, std::string, std::less<>> kv;
        for (std::size_t i = 0; i < body.size();) {
            if (!isWord(body[i])) {
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j < body.size() && isWord(body[j]))
                ++j;
            if (j >= body.size() || body[j] != '=') {
                i = j;
                continue;
            }
            std::size_t v = j + 1, end = v;
            if (v < body.size() && body[v] == '[' && body.find(']', v) != std::string_view::npos) {
                end = body.find(']', v) + 1; // a list, maybe with a "...+N" tail
                if (body.substr(end, 4) == "...+" && end + 4 < body.size() && isDigit(body[end + 4])) {
                    end += 4;
                    while (end < body.size() && isDigit(body[end]))
                        ++end;
                }
            } else {
                while (end < body.size() && std::isspace(static_cast<unsigned char>(body[end])) == 0)
                    ++end;
            }
            if (end == v) { // no value: the pattern fails here
                i = j + 1;
                continue;
            }
            kv[std::string(body.substr(i, j - i))] = std::string(body.substr(v, end - v));
            i = end;
        }
        return kv;
    }

    // ATOM's detailed `prefill[bs=… tok=T … sqsq=… sqsk=… sk=…]` / `decode[…]` (ATOM_DETAILED_PATTERN
    // `^(prefill|decode)\[.*sqsq=\d+.*\]`; _fill_atom): key=value pairs of the body (up to the last
    // ']'), a value a bracketed list or a run of non-spaces, int() of it or 0; tok is the phase's sq,
    // sk, sqsq and sqsk its sums. Without both sqsq and sqsk it has no sums (no estimate).
    std::optional<ChunkStats> atomDetailed(std::string_view name)
    {
        Cursor c { name };
        const bool prefill = c.literal("prefill[");
        if (!prefill && !c.literal("decode["))
            return std::nullopt;
        const std::size_t last = name.rfind(']');
        if (last == std::string_view::npos || last < c.at)
            return std::nullopt;
        const std::string_view body = name.substr(c.at, last - c.at);
        if (!hasSqSqSum(body))
            return std::nullopt;
        const auto kv = atomKeyValues(body);
        if (!kv.count("sqsq") || !kv.count("sqsk"))
            return std::nullopt;
        const auto get = [&kv](std::string_view key) { // _safe_int: int() or 0
            const auto it = kv.find(key);
            if (it == kv.end())
                return 0.0;
            Cursor n { it->second };
            const auto value = n.number();
            return value && n.at == it->second.size() ? *value : 0.0;
        };
        const double tok = get("tok"), sk = get("sk"), sqsq = get("sqsq"), sqsk = get("sqsk");
        if (prefill)
            return ChunkStats { tok, sk, sqsq, sqsk, 0, 0, 0, 0 };
        return ChunkStats { 0, 0, 0, 0, tok, sk, sqsq, sqsk };
    }

} // namespace

std::optional<ChunkStats> chunkStatsOf(std::string_view annotation)
{
    // IterationAnnotation.FORMATS' order: vLLM's detailed form (its native one has no sums),
    // SGLang's detailed then native, ATOM's detailed.
    if (auto s = vllmDetailed(annotation))
        return s;
    if (auto s = sglangDetailed(annotation))
        return s;
    if (auto s = sglangNative(annotation))
        return s;
    return atomDetailed(annotation);
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
