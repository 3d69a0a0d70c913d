#include "core/analysis/efficiency/backward_calls.h"

#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/op_kernel_time.h"
#include "core/io/json/args_reader.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>
#include <utility>
#include <variant>

namespace ks::core {

namespace {

    constexpr std::string_view kEvaluateFunction = "autograd::engine::evaluate_function:";

    // The "Sequence number" of an args object; nullopt without one.
    std::optional<std::int64_t> sequenceNumber(std::string_view args)
    {
        constexpr std::string_view key = "\"Sequence number\"";
        const std::size_t at = args.find(key);
        if (at == std::string_view::npos)
            return std::nullopt;
        std::size_t i = args.find(':', at + key.size());
        if (i == std::string_view::npos)
            return std::nullopt;
        ++i;
        while (i < args.size() && (args[i] == ' ' || args[i] == '\t' || args[i] == '\n' || args[i] == '\r'))
            ++i;
        std::int64_t value = 0;
        const auto [end, ec] = std::from_chars(args.data() + i, args.data() + args.size(), value);
        if (ec != std::errc() || end == args.data() + i)
            return std::nullopt;
        return value;
    }

    // The slices on a call's thread that lie inside it (the call included).
    std::vector<std::uint32_t> subtree(const RankTrace& t, std::uint32_t call)
    {
        const TimeNs start = t.slices.start[call], end = t.slices.end(call);
        std::vector<std::uint32_t> inside;
        for (const std::uint32_t s : t.slicesInRange(t.trackOf(call), start, end))
            if (t.slices.start[s] >= start && t.slices.end(s) <= end)
                inside.push_back(s);
        return inside;
    }

    // The forward call chosen for one backward call among the candidates of its name and sequence
    // number (see ForwardCalls): ours by start time, TraceLens's by the file's order.
    std::optional<std::uint32_t> chooseForward(const RankTrace& t,
        const std::vector<std::uint32_t>& candidates, std::uint32_t backward, bool tracelens)
    {
        std::optional<std::uint32_t> best;
        for (const std::uint32_t c : candidates) {
            const bool before = tracelens ? t.slices.eventIndex[c] < t.slices.eventIndex[backward]
                                          : t.slices.start[c] < t.slices.start[backward];
            if (!before)
                continue;
            if (!best
                || (tracelens ? t.slices.eventIndex[c] > t.slices.eventIndex[*best]
                              : t.slices.start[c] > t.slices.start[*best]))
                best = c;
        }
        return best;
    }

} // namespace

ForwardCalls forwardCalls(const RankTrace& t, const std::vector<ModelledCall>& calls,
    const std::vector<std::uint32_t>& backwardSlices, const ModelReading& reading)
{
    ForwardCalls out;
    std::vector<std::pair<std::uint32_t, std::string_view>> backwards; // slice, its forward op
    for (const std::uint32_t b : backwardSlices)
        if (const OpModel* model = findOpModel(t.sliceName(b)); model && !model->forwardOp.empty())
            backwards.emplace_back(b, model->forwardOp);
    if (backwards.empty())
        return out;
    const auto isForward = [&](const ModelledCall& c) {
        return c.model->forwardOp.empty()
            && std::any_of(
                backwards.begin(), backwards.end(), [&](const auto& b) { return b.second == c.model->name; });
    };
    std::vector<std::uint32_t> read;
    read.reserve(backwards.size());
    for (const auto& [b, op] : backwards)
        read.push_back(b);
    for (const ModelledCall& c : calls)
        if (isForward(c))
            read.push_back(c.slice);
    std::sort(read.begin(), read.end());
    read.erase(std::unique(read.begin(), read.end()), read.end());
    std::unordered_map<std::uint32_t, std::string> text;
    out.error = forEachSliceArgs(
        t, read, [&](std::uint32_t slice, std::string_view args) { text.emplace(slice, std::string(args)); });
    if (out.error)
        return out;
    const auto sequenceOf = [&](std::uint32_t slice) {
        const auto it = text.find(slice);
        return it == text.end() ? std::nullopt : sequenceNumber(it->second);
    };
    // The candidates per (forward op, sequence number); under TraceLens's reading only the calls its
    // model accepts (a forward whose model raises never reaches the cache).
    std::map<std::pair<std::string_view, std::int64_t>, std::vector<std::uint32_t>> candidates;
    OpArgsParser parser;
    for (const ModelledCall& c : calls) {
        if (!isForward(c))
            continue;
        const auto n = sequenceOf(c.slice);
        if (!n)
            continue;
        if (reading.tracelens) {
            const ParsedArgs parsed = parser.parse(text.at(c.slice));
            if (!parsed.args
                || !std::holds_alternative<PerfEstimate>(
                    c.model->model(c.model->name, *parsed.args, reading)))
                continue;
        }
        candidates[{ c.model->name, *n }].push_back(c.slice);
    }
    for (const auto& [b, op] : backwards) {
        const auto n = sequenceOf(b);
        if (!n)
            continue;
        const auto it = candidates.find({ op, *n });
        if (it == candidates.end())
            continue;
        if (const auto forward = chooseForward(t, it->second, b, reading.tracelens))
            out.argsOf.emplace(b, text.at(*forward));
    }
    return out;
}

BackwardCalls backwardCalls(
    const RankTrace& t, const std::vector<std::uint32_t>& forwardSlices, bool tracelensLinks)
{
    BackwardCalls out;
    if (forwardSlices.empty())
        return out;
    // The candidates: the evaluate_function events, and every slice inside a forward call
    // (the leaf forward op of a sequence number is nested in the call that owns it).
    std::vector<std::uint32_t> evaluate;
    for (const Track& track : t.tracks)
        if (track.kind == TrackKind::CpuThread)
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s)
                if (t.sliceName(s).substr(0, kEvaluateFunction.size()) == kEvaluateFunction)
                    evaluate.push_back(s);
    if (evaluate.empty())
        return out;
    std::vector<std::vector<std::uint32_t>> inside;
    std::vector<std::uint32_t> read = evaluate;
    for (const std::uint32_t call : forwardSlices) {
        inside.push_back(subtree(t, call));
        read.insert(read.end(), inside.back().begin(), inside.back().end());
    }
    std::sort(read.begin(), read.end());
    read.erase(std::unique(read.begin(), read.end()), read.end());
    std::unordered_map<std::uint32_t, std::int64_t> sequence;
    out.error = forEachSliceArgs(t, read, [&](std::uint32_t slice, std::string_view text) {
        if (const auto n = sequenceNumber(text))
            sequence.emplace(slice, *n);
    });
    if (out.error)
        return out;
    // Per sequence number: its first evaluate_function event, and the candidates carrying it.
    std::map<std::int64_t, std::uint32_t> backwardOf;
    std::sort(evaluate.begin(), evaluate.end(),
        [&](std::uint32_t a, std::uint32_t b) { return t.slices.start[a] < t.slices.start[b]; });
    for (const std::uint32_t s : evaluate)
        if (const auto it = sequence.find(s); it != sequence.end())
            backwardOf.emplace(it->second, s);
    // The leaf forward op of each: the latest start on another thread than the backward event.
    std::map<std::int64_t, std::uint32_t> leafOf;
    for (const auto& [slice, n] : sequence) {
        const auto b = backwardOf.find(n);
        if (b == backwardOf.end() || t.trackOf(slice) == t.trackOf(b->second))
            continue;
        const auto [it, fresh] = leafOf.emplace(n, slice);
        if (!fresh && t.slices.start[slice] > t.slices.start[it->second])
            it->second = slice;
    }
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> backwardsOfLeaf;
    for (const auto& [n, leaf] : leafOf)
        backwardsOfLeaf[leaf].push_back(backwardOf.at(n));
    // A forward call's backward events: those of the slices of its subtree.
    std::vector<std::uint32_t> linkedCalls;
    std::vector<std::vector<std::uint32_t>> groups;
    for (std::size_t i = 0; i < forwardSlices.size(); ++i) {
        std::vector<std::uint32_t> events;
        for (const std::uint32_t s : inside[i])
            if (const auto it = backwardsOfLeaf.find(s); it != backwardsOfLeaf.end())
                events.insert(events.end(), it->second.begin(), it->second.end());
        if (events.empty())
            continue;
        linkedCalls.push_back(forwardSlices[i]);
        groups.push_back(std::move(events));
    }
    const std::vector<TimeNs> times = busyTimeOfGroups(t, groups, tracelensLinks);
    for (std::size_t i = 0; i < linkedCalls.size(); ++i)
        out.kernelTime.emplace(linkedCalls[i], times[i]);
    return out;
}

} // namespace ks::core
