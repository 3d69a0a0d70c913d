// Rules about copies and memsets that block or go through pageable memory, as
// Nsight Systems' expert rules name them: pageable_memcpy, sync_memcpy, sync_memset.

#include "core/insights/rule_support.h"

#include <algorithm>
#include <array>
#include <span>
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
        for (const FrameRow& row : frame.rows) {
            if (row.device || std::find(names.begin(), names.end(), frame.name(row)) == names.end())
                continue;
            calls.push_back(&row);
            callTime += row.dur;
            const FrameRow* next = device.nextAt(row.end());
            spans.push_back({ row.ts, next ? std::max(next->ts, row.end()) : row.end() });
        }
        if (calls.empty() || static_cast<double>(calls.size()) < p["min_count"])
            return RuleOutcome::none();
        const TimeNs onPath = c.pathTimeWithin(frame.rank, spans);
        const double gain = c.pctOfMeasured(onPath);
        Finding f = newFinding(info, std::to_string(calls.size()) + " " + what, gain, { frame.rank });
        f.evidence.push_back(std::to_string(calls.size()) + " calls, " + formatMs(callTime) + " on the host");
        f.evidence.push_back(
            "the calls and the GPU's wait for work after them, on the critical path: " + formatMs(onPath));
        f.suggestion = suggestion;
        f.where.push_back(rowsWhere(c, frame.rank, calls));
        f.iterations = iterationsOf(calls);
        f.gainBasis = "time on the critical path from each call's start to the GPU's next work";
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
