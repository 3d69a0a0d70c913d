// low_sm_efficiency: the PyTorch TensorBoard plugin's estimated SM efficiency
// and achieved occupancy per kernel, from the args Kineto writes on CUDA kernels
// (read by core/analysis/kernels/kernel_occupancy.h, as the kernel breakdown's
// columns and the timeline's track read them). A kernel whose grid has fewer blocks than the GPU has SMs
// (blocks per SM < 1) leaves SMs idle: the plugin's estimate of its SM efficiency
// is min(blocks per SM, 1). The gain is the fix re-timed on the critical path: a
// grid filling every SM runs a kernel in `efficiency` of its time at best (the
// high end); the low end gets half of that back, (1 + efficiency) / 2 of its time
// (small grids are often latency-bound, not starved).

#include "core/analysis/kernels/kernel_occupancy.h"
#include "core/insights/rule_support.h"

#include <algorithm>
#include <map>

namespace ks::core {

namespace {

    struct KernelUse
    {
        const FrameRow* row = nullptr;
        double smEfficiency = 1; // min(blocks per SM, 1)
        KernelOccupancy figures;
    };

    // The kernels read: the longest, enough to weigh the rank's kernel time without
    // re-reading every kernel's args of a long trace.
    constexpr std::size_t kKernelsRead = 4096;

    const RuleInfo kSmEfficiency { "low_sm_efficiency",
        "kernels whose grid leaves SMs idle: est. SM efficiency and achieved occupancy (TensorBoard plugin)",
        { { "max_sm_efficiency_pct", 50,
              "a kernel is low when its est. SM efficiency (blocks per SM, at most 1) is under this %" },
            { "min_gain_pct", 1.0, "report when the modelled gain is at least this %" } },
        "kernelDurations" };

    RuleOutcome lowSmEfficiency(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (!hasDeviceWork(frame))
            return RuleOutcome::na(std::string(kNoGpu));
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        std::vector<const FrameRow*> kernels;
        for (const FrameRow& row : frame.rows)
            if (row.device && row.kernelType == KernelType::Computation && row.dur > 0)
                kernels.push_back(&row);
        std::stable_sort(kernels.begin(), kernels.end(),
            [](const FrameRow* a, const FrameRow* b) { return a->dur > b->dur; });
        kernels.resize(std::min(kernels.size(), kKernelsRead));
        std::map<std::uint32_t, const FrameRow*> bySlice;
        std::vector<std::uint32_t> slices;
        for (const FrameRow* k : kernels) {
            bySlice.emplace(k->slice, k);
            slices.push_back(k->slice);
        }
        auto read = readKernelOccupancy(*frame.trace, slices);
        if (!read)
            return RuleOutcome::na("the kernels' args cannot be read: " + read.error().message);
        std::vector<KernelUse> uses;
        for (KernelOccupancy& k : read.value()) {
            const auto row = bySlice.find(k.slice);
            const auto efficiency = k.smEfficiency();
            if (efficiency && row != bySlice.end())
                uses.push_back({ row->second, *efficiency, std::move(k) });
        }
        if (uses.empty())
            return RuleOutcome::na(
                "the kernels carry no \"blocks per SM\" (Kineto writes it on CUDA kernels)");
        OccupancyMean mean;
        for (const KernelUse& u : uses)
            mean.add(u.figures, static_cast<double>(u.row->dur));
        const double threshold = p["max_sm_efficiency_pct"] / 100.0;
        std::vector<const KernelUse*> low;
        for (const KernelUse& u : uses)
            if (u.smEfficiency < threshold)
                low.push_back(&u);
        if (low.empty())
            return RuleOutcome::none();
        // Per kernel: the low end keeps half the share of SMs its grid leaves idle, the
        // high end none (the same work spread over every SM).
        WhatIfRankEdits halfFilled;
        halfFilled.rank = frame.rank;
        WhatIfRankEdits filled = halfFilled;
        TimeNs lowTime = 0;
        std::vector<const FrameRow*> rows;
        std::vector<Interval> lowKernels;
        for (const KernelUse* u : low) {
            const std::uint32_t index = rowIndexOf(frame, *u->row);
            halfFilled.rows[index] = (1.0 + u->smEfficiency) / 2.0;
            filled.rows[index] = u->smEfficiency;
            lowTime += u->row->dur;
            rows.push_back(u->row);
            lowKernels.push_back({ u->row->ts, u->row->end() });
        }
        const std::vector<WhatIfRankEdits> fix { halfFilled };
        const double gain = c.whatIfGainPct({}, fix).value_or(0);
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        const double gainHigh = std::max(gain, c.whatIfGainPct({}, { filled }).value_or(0));
        const TimeNs onPath = c.pathTimeWithin(frame.rank, std::move(lowKernels));
        Finding f = newFinding(kSmEfficiency,
            std::to_string(low.size()) + " kernel(s) with grids too small to fill the GPU's SMs", gain,
            { frame.rank });
        const auto occupancy = mean.occupancyPct();
        f.evidence.push_back("est. SM efficiency over the kernels read (time-weighted): "
            + formatPct(mean.smEfficiencyPct().value_or(0))
            + (occupancy ? "; est. achieved occupancy " + formatPct(*occupancy) : ""));
        f.gainHighPct = gainHigh;
        f.evidence.push_back(std::to_string(low.size()) + " kernels under " + formatPct(100 * threshold)
            + ", " + formatMs(lowTime) + " of GPU time, " + formatMs(onPath) + " of it on the critical path");
        f.evidence.push_back("model: with grids that fill every SM each kernel takes (1 + efficiency) / 2 "
                             "(low end: half the idle SMs' share back) to efficiency (high end) of its "
                             "time, the path re-timed: gain "
            + formatPct(gain) + " to " + formatPct(gainHigh));
        std::map<std::string, std::pair<TimeNs, const KernelUse*>> byName;
        for (const KernelUse* u : low) {
            auto& [time, example] = byName[std::string(frame.name(*u->row))];
            time += u->row->dur;
            example = example ? example : u;
        }
        std::vector<std::pair<TimeNs, const KernelUse*>> top;
        for (const auto& [name, entry] : byName)
            top.push_back(entry);
        std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (std::size_t i = 0; i < std::min<std::size_t>(3, top.size()); ++i) {
            const KernelUse& u = *top[i].second;
            const KernelOccupancy& k = u.figures;
            f.evidence.push_back(std::string(frame.name(*u.row)) + ": " + formatMs(top[i].first) + ", grid "
                + (k.grid.empty() ? "?" : k.grid) + ", block " + (k.block.empty() ? "?" : k.block)
                + ", SM efficiency " + formatPct(100 * u.smEfficiency)
                + (k.occupancyPct ? ", occupancy " + formatPct(*k.occupancyPct) : ""));
        }
        f.where.push_back(rowsWhere(c, frame.rank, rows));
        f.suggestion = "Give these kernels more parallel work: larger batches or fused ops (torch.compile), "
                       "split-K or stream-K GEMMs for small matrices, or run independent small kernels "
                       "concurrently on several streams (or capture them in a CUDA graph).";
        f.gainBasis = "what-if: each low kernel's time scaled to (1 + SM efficiency) / 2, re-timed on the "
                      "critical path";
        f.whatIfEdits = fix;
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> smEfficiencyRules()
{
    return { { kSmEfficiency, RuleScope::Rank, lowSmEfficiency } };
}

} // namespace ks::core
