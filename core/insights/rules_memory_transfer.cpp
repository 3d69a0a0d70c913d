// Rules about copies and memsets that block or go through pageable memory, as
// Nsight Systems' expert rules name them: pageable_memcpy, sync_memcpy, sync_memset.

#include "core/analysis/frame/launch_api.h"
#include "core/insights/rule_support.h"

#include <algorithm>
#include <array>
#include <span>
#include <unordered_map>
#include <unordered_set>

namespace ks::core {

namespace {

    // ---- pageable_memcpy -----------------------------------------------------

    const RuleInfo kPageable { "pageable_memcpy", "copies between the GPU and pageable host memory",
        { { "min_count", 1, "report from this many pageable copies" },
            { "min_pinned_speedup", 1.5,
                "the low end's copy from pinned memory runs this many times faster on the GPU (no staging)" },
            { "max_pinned_speedup", 3, "the high end's" } },
        "memoryBw" };

    RuleOutcome pageableMemcpy(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (!hasDeviceWork(frame))
            return RuleOutcome::na("no GPU work on this rank");
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        std::vector<const FrameRow*> copies;
        std::unordered_set<std::int64_t> events; // the copies and their launch calls
        TimeNs time = 0;
        TimeNs hostTime = 0; // the copies' host calls
        TimeNs waited = 0; // of it, waiting for the stream to drain before the copy began
        // Pinning removes each copy's staging: its host call returns at once, and the
        // call's wait for the stream to drain moves to the next synchronisation (it
        // stays: the gain excludes waiting); on the GPU the copy runs at the pinned
        // rate, `min_pinned_speedup` (low end) to `max_pinned_speedup` times faster.
        WhatIfRankEdits low;
        low.rank = frame.rank;
        WhatIfRankEdits high = low;
        const double speedupLow = std::max(1.0, p["min_pinned_speedup"]);
        const double speedup = std::max(speedupLow, p["max_pinned_speedup"]);
        for (const FrameRow& row : frame.rows) {
            const std::string_view name = frame.name(row);
            if (!row.device || name.substr(0, 6) != "Memcpy"
                || name.find("Pageable") == std::string_view::npos)
                continue;
            copies.push_back(&row);
            events.insert(row.eventIndex);
            time += row.dur;
            low.rows[rowIndexOf(frame, row)] = 1.0 / speedupLow;
            high.rows[rowIndexOf(frame, row)] = 1.0 / speedup;
            const FrameRow* call =
                row.indexCorrelation > 0 ? frame.rowOfEvent(row.indexCorrelation) : nullptr;
            if (!call || call->dur <= 0)
                continue;
            events.insert(row.indexCorrelation);
            const TimeNs wait = std::clamp<TimeNs>(row.ts - call->ts, 0, call->dur);
            hostTime += call->dur;
            waited += wait;
            const double keep = static_cast<double>(wait) / static_cast<double>(call->dur);
            low.rows[rowIndexOf(frame, *call)] = keep;
            high.rows[rowIndexOf(frame, *call)] = keep;
        }
        if (copies.empty() || static_cast<double>(copies.size()) < p["min_count"])
            return RuleOutcome::none();
        const auto isCopy = [&](const PathSegment& s) { return events.count(s.piece.eventIndex) > 0; };
        const TimeNs onPath = c.pathTimeOf(isCopy);
        const std::vector<WhatIfRankEdits> fix { low };
        const double gain = c.whatIfGainPct({}, fix).value_or(0);
        const double gainHigh = std::max(gain, c.whatIfGainPct({}, { high }).value_or(0));
        Finding f = newFinding(kPageable, std::to_string(copies.size()) + " copies use pageable host memory",
            gain, { frame.rank });
        f.gainHighPct = gainHigh;
        f.evidence.push_back(
            std::to_string(copies.size()) + " Memcpy (... Pageable ...) on the GPU, " + formatMs(time));
        f.evidence.push_back("their host calls: " + formatMs(hostTime) + ", of it waiting for the stream to "
            + "drain before the copy began: " + formatMs(waited));
        f.evidence.push_back("the copies and their launch calls on the critical path: " + formatMs(onPath));
        f.evidence.push_back(
            "model: from pinned memory each host call returns at once, its wait for the stream "
            "moves to the next synchronisation (kept), only its staging goes; the GPU's copy "
            "takes "
            + formatPct(100.0 / speedupLow) + " (low end) to " + formatPct(100.0 / speedup)
            + " (high end) of its time: gain " + formatPct(gain) + " to " + formatPct(gainHigh));
        f.suggestion =
            "Copy from pinned memory: DataLoader(pin_memory=True) or tensor.pin_memory(), then "
            ".to(device, non_blocking=True); pageable copies are staged by the driver and block the host.";
        f.where.push_back(rowsWhere(c, frame.rank, copies));
        f.iterations = iterationsOf(copies);
        f.gainBasis = "what-if: the copies' staging removed from their host calls (their wait for the stream "
                      "kept), re-timed on the critical path";
        f.whatIfEdits = fix;
        return { { f }, std::nullopt };
    }

    // ---- sync_memcpy / sync_memset -------------------------------------------

    // Blocking runtime calls: the host waits for them and the GPU waits for the host after them.
    // The fix (the Async call on a stream) returns as soon as the work is enqueued: each
    // call takes a kernel launch's time (the rank's median launch call) and the host
    // issues what follows while the GPU copies. A copy to the host whose data the host
    // then reads still waits, at the next synchronisation: the low end keeps those
    // calls (DtoH) as they are, the high end makes every call asynchronous.
    RuleOutcome blockingCalls(InsightsContext& c, const RuleParams& p, const RuleInfo& info,
        std::span<const std::string_view> names, const std::string& what, const std::string& suggestion)
    {
        const RankFrame& frame = onlyRank(c);
        if (!hasDeviceWork(frame))
            return RuleOutcome::na("no GPU work on this rank");
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        const DeviceRowsByStart device(frame);
        std::vector<const FrameRow*> calls;
        std::vector<Interval> spans; // the call and the GPU's wait for new work after it
        TimeNs callTime = 0;
        std::vector<TimeNs> launchCalls;
        std::unordered_map<std::int64_t, const FrameRow*> workOfCall; // call event -> its GPU copy or set
        for (const FrameRow& row : frame.rows) {
            if (row.device) {
                if (row.indexCorrelation > 0)
                    workOfCall.emplace(row.indexCorrelation, &row);
                continue;
            }
            const std::string_view name = frame.name(row);
            if (launchKindOf(name) == LaunchKind::Kernel)
                launchCalls.push_back(row.dur);
            if (std::find(names.begin(), names.end(), name) == names.end())
                continue;
            calls.push_back(&row);
            callTime += row.dur;
            const FrameRow* next = device.nextAt(row.end());
            spans.push_back({ row.ts, next ? std::max(next->ts, row.end()) : row.end() });
        }
        if (calls.empty() || static_cast<double>(calls.size()) < p["min_count"])
            return RuleOutcome::none();
        TimeNs launchCost = 0;
        if (!launchCalls.empty()) {
            const auto middle = launchCalls.begin() + static_cast<std::ptrdiff_t>(launchCalls.size() / 2);
            std::nth_element(launchCalls.begin(), middle, launchCalls.end());
            launchCost = *middle;
        }
        // Each call's GPU idle stretch after it (its last work before the call's end to
        // its next work) closes by the host's wait in the call (closingEdits).
        std::vector<WaitedStretch> all;
        std::vector<WaitedStretch> notToHost;
        std::size_t toHost = 0;
        for (const FrameRow* call : calls) {
            const auto work = workOfCall.find(call->eventIndex);
            const bool readsBack =
                work != workOfCall.end() && frame.name(*work->second).find("DtoH") != std::string_view::npos;
            toHost += readsBack ? 1 : 0;
            const FrameRow* next = device.nextAt(call->end());
            const TimeNs from = device.lastEndBefore(call->end());
            if (!next || next->ts <= from || call->dur <= launchCost)
                continue;
            const WaitedStretch stretch { { from, next->ts }, call->dur - launchCost };
            all.push_back(stretch);
            if (!readsBack)
                notToHost.push_back(stretch);
        }
        TimeNs closable = 0;
        const WhatIfRankEdits low = closingEdits(c, frame.rank, std::move(notToHost), closable);
        TimeNs closableHigh = 0;
        const WhatIfRankEdits high = closingEdits(c, frame.rank, std::move(all), closableHigh);
        const TimeNs onPath = c.pathTimeWithin(frame.rank, spans);
        const std::vector<WhatIfRankEdits> fix { low };
        const double gain = low.empty() ? 0.0 : c.whatIfGainPct({}, fix).value_or(0);
        const double gainHigh = std::max(gain, c.whatIfGainPct({}, { high }).value_or(0));
        Finding f = newFinding(info, std::to_string(calls.size()) + " " + what, gain, { frame.rank });
        f.gainHighPct = gainHigh;
        f.evidence.push_back(std::to_string(calls.size()) + " calls, " + formatMs(callTime) + " on the host"
            + (toHost > 0 ? "; " + std::to_string(toHost) + " of them copy to the host (DtoH)" : ""));
        f.evidence.push_back(
            "the calls and the GPU's wait for work after them, on the critical path: " + formatMs(onPath));
        f.evidence.push_back("model: asynchronous, each call returns after a kernel launch's time ("
            + formatMs(launchCost)
            + ", the rank's median launch call) and the host issues the next work while the GPU runs: "
              "the GPU's idle stretch after each call closes by the host's wait in it, re-timed on the "
              "critical path; the low end keeps the copies to the host (the host reads their data, so it "
              "still waits, at the next synchronisation), the high end makes them asynchronous too: gain "
            + formatPct(gain) + " to " + formatPct(gainHigh));
        f.suggestion = suggestion;
        f.where.push_back(rowsWhere(c, frame.rank, calls));
        f.iterations = iterationsOf(calls);
        f.gainBasis = "what-if: the calls made asynchronous (a launch's time each; copies to the host kept), "
                      "re-timed on the critical path";
        if (!low.empty())
            f.whatIfEdits = fix;
        return { { f }, std::nullopt };
    }

    const RuleInfo kSyncMemcpy { "sync_memcpy", "synchronous memory copies",
        { { "min_count", 1, "report from this many synchronous cudaMemcpy calls" } }, "memoryBw" };
    constexpr std::array<std::string_view, 6> kSyncMemcpyCalls = { "cudaMemcpy", "cudaMemcpy2D",
        "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "hipMemcpy", "hipMemcpy2D" };

    RuleOutcome syncMemcpy(InsightsContext& c, const RuleParams& p)
    {
        return blockingCalls(c, p, kSyncMemcpy, kSyncMemcpyCalls, "synchronous memory copies (cudaMemcpy)",
            "Use cudaMemcpyAsync on a stream (in PyTorch: .to(device, non_blocking=True) from pinned memory) "
            "so the host does not wait for the copy.");
    }

    const RuleInfo kSyncMemset { "sync_memset", "synchronous memsets",
        { { "min_count", 1, "report from this many synchronous cudaMemset calls" } }, "memoryBw" };
    constexpr std::array<std::string_view, 4> kSyncMemsetCalls = { "cudaMemset", "cudaMemset2D", "hipMemset",
        "hipMemset2D" };

    RuleOutcome syncMemset(InsightsContext& c, const RuleParams& p)
    {
        return blockingCalls(c, p, kSyncMemset, kSyncMemsetCalls, "synchronous memsets (cudaMemset)",
            "Use cudaMemsetAsync on the work's stream (or allocate with torch.zeros on the device, which "
            "launches a kernel) so the host does not wait.");
    }

} // namespace

std::vector<Rule> memoryTransferRules()
{
    return { { kPageable, RuleScope::Rank, pageableMemcpy }, { kSyncMemcpy, RuleScope::Rank, syncMemcpy },
        { kSyncMemset, RuleScope::Rank, syncMemset } };
}

} // namespace ks::core
