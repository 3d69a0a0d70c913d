#include "core/analysis/efficiency/backward_calls.h"

#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/op_kernel_time.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>
#include <variant>

namespace ks::core {

namespace {

    constexpr std::string_view kEvaluateFunction = "autograd::engine::evaluate_function:";

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

ForwardLinks forwardLinks(const RankTrace& t, const std::vector<ModelledCall>& calls,
    const std::vector<std::uint32_t>& backwardSlices)
{
    ForwardLinks links;
    for (const std::uint32_t b : backwardSlices)
        if (const OpModel* model = findOpModel(t.sliceName(b)); model && !model->forwardOp.empty())
            links.backwards.emplace_back(b, model->forwardOp);
    if (links.backwards.empty())
        return links;
    for (const ModelledCall& c : calls)
        if (c.model->forwardOp.empty()
            && std::any_of(links.backwards.begin(), links.backwards.end(),
                [&](const auto& b) { return b.second == c.model->name; }))
            links.forwards.push_back(c.slice);
    std::sort(links.forwards.begin(), links.forwards.end());
    links.forwards.erase(std::unique(links.forwards.begin(), links.forwards.end()), links.forwards.end());
    return links;
}

void addWanted(const ForwardLinks& links, ArgsWanted& wanted)
{
    wanted.text.insert(wanted.text.end(), links.forwards.begin(), links.forwards.end());
    wanted.sequence.insert(wanted.sequence.end(), links.forwards.begin(), links.forwards.end());
    for (const auto& [b, op] : links.backwards)
        wanted.sequence.push_back(b);
}

ForwardCalls forwardCalls(const RankTrace& t, const std::vector<ModelledCall>& calls,
    const ForwardLinks& links, const RankArgsTexts& args, const ModelReading& reading)
{
    ForwardCalls out;
    if (links.backwards.empty())
        return out;
    // The candidates per (forward op, sequence number); under TraceLens's reading only the calls its
    // model accepts (a forward whose model raises never reaches the cache).
    std::map<std::pair<std::string_view, std::int64_t>, std::vector<std::uint32_t>> candidates;
    OpArgsParser parser;
    for (const ModelledCall& c : calls) {
        if (!std::binary_search(links.forwards.begin(), links.forwards.end(), c.slice))
            continue;
        const std::string* text = args.textOf(c.slice);
        const auto n = args.sequenceOf(c.slice);
        if (!text || !n)
            continue;
        if (reading.tracelens) {
            const ParsedArgs parsed = parser.parse(*text);
            if (!parsed.args
                || !std::holds_alternative<PerfEstimate>(
                    c.model->model(c.model->name, *parsed.args, reading)))
                continue;
        }
        candidates[{ c.model->name, *n }].push_back(c.slice);
    }
    for (const auto& [b, op] : links.backwards) {
        const auto n = args.sequenceOf(b);
        if (!n)
            continue;
        const auto it = candidates.find({ op, *n });
        if (it == candidates.end())
            continue;
        if (const auto forward = chooseForward(t, it->second, b, reading.tracelens))
            out.argsOf.emplace(b, args.textOf(*forward));
    }
    return out;
}

BackwardLinks backwardLinks(const RankTrace& t, const std::vector<std::uint32_t>& forwardSlices)
{
    BackwardLinks links;
    if (forwardSlices.empty())
        return links;
    for (const Track& track : t.tracks)
        if (track.kind == TrackKind::CpuThread)
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s)
                if (t.sliceName(s).substr(0, kEvaluateFunction.size()) == kEvaluateFunction)
                    links.evaluate.push_back(s);
    if (links.evaluate.empty())
        return links;
    std::sort(links.evaluate.begin(), links.evaluate.end(),
        [&](std::uint32_t a, std::uint32_t b) { return t.slices.start[a] < t.slices.start[b]; });
    links.forwardSlices = forwardSlices;
    links.candidates = links.evaluate;
    for (const std::uint32_t call : forwardSlices) {
        links.inside.push_back(subtree(t, call));
        links.candidates.insert(
            links.candidates.end(), links.inside.back().begin(), links.inside.back().end());
    }
    std::sort(links.candidates.begin(), links.candidates.end());
    links.candidates.erase(
        std::unique(links.candidates.begin(), links.candidates.end()), links.candidates.end());
    return links;
}

void addWanted(const BackwardLinks& links, ArgsWanted& wanted)
{
    wanted.sequence.insert(wanted.sequence.end(), links.candidates.begin(), links.candidates.end());
}

BackwardCalls backwardCalls(
    const RankTrace& t, const BackwardLinks& links, const RankArgsTexts& args, bool tracelensLinks)
{
    BackwardCalls out;
    if (links.forwardSlices.empty())
        return out;
    const std::vector<std::uint32_t>& forwardSlices = links.forwardSlices;
    const std::vector<std::vector<std::uint32_t>>& inside = links.inside;
    // Only the candidates' numbers: `args` may hold those of other slices too.
    const std::unordered_map<std::uint32_t, std::int64_t>& sequence = args.sequence;
    // Per sequence number: its first evaluate_function event, and the candidates carrying it.
    std::map<std::int64_t, std::uint32_t> backwardOf;
    for (const std::uint32_t s : links.evaluate)
        if (const auto it = sequence.find(s); it != sequence.end())
            backwardOf.emplace(it->second, s);
    // The leaf forward op of each: the latest start on another thread than the backward event.
    std::map<std::int64_t, std::uint32_t> leafOf;
    for (const std::uint32_t slice : links.candidates) {
        const auto found = sequence.find(slice);
        if (found == sequence.end())
            continue;
        const std::int64_t n = found->second;
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
