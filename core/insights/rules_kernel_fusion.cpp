// kernel_fusion: TraceLens's fusion candidates, runs of short memory-bound
// elementwise kernels between the same two GEMMs on a stream (a bias, an
// activation, a residual add and a cast after a matmul, repeated every layer).
// torch.compile or a fused op does them in one kernel that reads its inputs
// once. The gain is the fusion re-timed on the critical path: each run becomes
// one kernel launched once, so the host's dispatch between the run's first and
// last launch goes, and with it the launch delays and gaps inside the run. The
// low end keeps every kernel's time (the fused kernel does all their work); the
// high end also drops the memory traffic fusion saves, the run taking only its
// longest kernel's time (an elementwise chain reads and writes one tensor's worth).

#include "core/insights/rule_support.h"

#include <algorithm>
#include <array>
#include <map>
#include <span>

namespace ks::core {

namespace {

    bool nameHasAny(std::string_view name, std::span<const std::string_view> parts)
    {
        return std::any_of(parts.begin(), parts.end(),
            [name](std::string_view p) { return name.find(p) != std::string_view::npos; });
    }

    bool isGemm(std::string_view kernel)
    {
        static constexpr std::array<std::string_view, 7> kParts { "gemm", "Gemm", "GEMM", "cutlass", "matmul",
            "xmma", "cublas" };
        return nameHasAny(kernel, kParts);
    }

    bool isElementwise(std::string_view kernel)
    {
        static constexpr std::array<std::string_view, 5> kParts { "elementwise", "Elementwise", "pointwise",
            "triton_poi", "vectorized" };
        return nameHasAny(kernel, kParts);
    }

    // The runtime call that launched a kernel (its correlation), nullptr when none is recorded.
    const FrameRow* launchCallOf(const RankFrame& frame, const FrameRow& kernel)
    {
        const FrameRow* call =
            kernel.indexCorrelation > 0 ? frame.rowOfEvent(kernel.indexCorrelation) : nullptr;
        return call && !call->device ? call : nullptr;
    }

    struct Run
    {
        std::vector<const FrameRow*> kernels;
    };

    const RuleInfo kFusion { "kernel_fusion",
        "runs of short elementwise kernels between the same GEMMs (TraceLens's fusion candidates)",
        { { "min_run", 3, "a candidate is at least this many elementwise kernels in a row" },
            { "max_kernel_us", 50, "each of them shorter than this" },
            { "min_gain_pct", 0.5, "report when fusing the runs gives back at least this %" } },
        "kernelDurations" };

    RuleOutcome kernelFusion(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (!hasDeviceWork(frame))
            return RuleOutcome::na(std::string(kNoGpu));
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        std::map<std::int64_t, std::vector<const FrameRow*>> byStream;
        for (const FrameRow& row : frame.rows)
            if (row.device && row.kernelType == KernelType::Computation)
                byStream[row.stream].push_back(&row);
        const auto maxKernel = static_cast<TimeNs>(p["max_kernel_us"] * 1000);
        const auto minRun = static_cast<std::size_t>(std::max(2.0, p["min_run"]));
        // (GEMM before, GEMM after, the run's names) -> its runs: "the same GEMMs" repeating.
        std::map<std::vector<std::string>, std::vector<Run>> candidates;
        for (auto& [stream, kernels] : byStream) {
            std::stable_sort(kernels.begin(), kernels.end(),
                [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
            for (std::size_t i = 0; i < kernels.size(); ++i) {
                if (!isGemm(frame.name(*kernels[i])))
                    continue;
                std::size_t j = i + 1;
                while (j < kernels.size() && isElementwise(frame.name(*kernels[j]))
                    && kernels[j]->dur < maxKernel)
                    ++j;
                if (j - i - 1 < minRun || j >= kernels.size() || !isGemm(frame.name(*kernels[j])))
                    continue;
                std::vector<std::string> key { std::string(frame.name(*kernels[i])),
                    std::string(frame.name(*kernels[j])) };
                Run run;
                for (std::size_t k = i + 1; k < j; ++k) {
                    key.emplace_back(frame.name(*kernels[k]));
                    run.kernels.push_back(kernels[k]);
                }
                candidates[key].push_back(std::move(run));
                i = j - 1; // the closing GEMM may open the next run
            }
        }
        if (candidates.empty())
            return RuleOutcome::none();
        std::vector<Interval> gaps;
        std::size_t runs = 0;
        std::size_t fused = 0;
        TimeNs kernelTime = 0;
        std::vector<const FrameRow*> rows;
        const std::vector<std::string>* largest = nullptr;
        std::size_t largestCount = 0;
        // Per bound the windows the fused runs empty (merged: runs on two streams may overlap).
        std::vector<Interval> dispatch; // first launch call's end to the last one's end
        std::vector<Interval> launches; // first launch call's start to the last kernel's end
        std::vector<Interval> streams; // first kernel's start to the last one's end
        std::vector<const FrameRow*> absorbed; // all but each run's longest kernel
        for (const auto& [key, list] : candidates) {
            if (list.size() > largestCount) {
                largest = &key;
                largestCount = list.size();
            }
            for (const Run& r : list) {
                ++runs;
                fused += r.kernels.size();
                for (std::size_t k = 0; k < r.kernels.size(); ++k) {
                    kernelTime += r.kernels[k]->dur;
                    rows.push_back(r.kernels[k]);
                    if (k > 0 && r.kernels[k]->ts > r.kernels[k - 1]->end())
                        gaps.push_back({ r.kernels[k - 1]->end(), r.kernels[k]->ts });
                }
                const auto longest = std::max_element(r.kernels.begin(), r.kernels.end(),
                    [](const FrameRow* a, const FrameRow* b) { return a->dur < b->dur; });
                for (const FrameRow* k : r.kernels)
                    if (k != *longest)
                        absorbed.push_back(k);
                const FrameRow* first = r.kernels.front();
                const FrameRow* last = r.kernels.back();
                streams.push_back({ first->ts, last->end() });
                const FrameRow* firstCall = launchCallOf(frame, *first);
                const FrameRow* lastCall = launchCallOf(frame, *last);
                if (firstCall && lastCall && lastCall->end() > firstCall->end()) {
                    dispatch.push_back({ firstCall->end(), lastCall->end() });
                    launches.push_back({ firstCall->ts, last->end() });
                }
            }
        }
        WhatIfRankEdits oneKernel;
        oneKernel.rank = frame.rank;
        const auto empty = [&oneKernel](std::vector<Interval> windows, PathBound bound) {
            for (const Interval& w : mergeIntervals(std::move(windows)))
                oneKernel.windows.push_back({ w.start, w.end, bound, 0.0 });
        };
        empty(std::move(dispatch), PathBound::Cpu);
        empty(std::move(launches), PathBound::LaunchOverhead);
        empty(std::move(streams), PathBound::KernelGap);
        sortWindowsByStart(oneKernel);
        WhatIfRankEdits longestOnly = oneKernel;
        for (const FrameRow* k : absorbed)
            longestOnly.rows[rowIndexOf(frame, *k)] = 0.0;
        const std::vector<WhatIfRankEdits> fix { oneKernel };
        const double gain = c.whatIfGainPct({}, fix).value_or(0);
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        const double gainHigh = std::max(gain, c.whatIfGainPct({}, { longestOnly }).value_or(0));
        const TimeNs onPath = c.pathTimeWithin(frame.rank, gaps);
        Finding f = newFinding(kFusion,
            std::to_string(runs) + " run(s) of short elementwise kernels between GEMMs could be fused", gain,
            { frame.rank });
        f.evidence.push_back(std::to_string(fused) + " kernels in " + std::to_string(runs) + " runs, "
            + formatMs(kernelTime) + " of kernels; " + std::to_string(candidates.size())
            + " distinct pattern(s)");
        std::string pattern =
            std::to_string(largestCount) + " x between " + (*largest)[0] + " and " + (*largest)[1] + ":";
        for (std::size_t k = 2; k < largest->size() && k < 6; ++k)
            pattern += (k > 2 ? ", " : " ") + (*largest)[k];
        f.evidence.push_back(pattern + (largest->size() > 6 ? ", ..." : ""));
        f.gainHighPct = gainHigh;
        f.evidence.push_back("gaps between them on the critical path: " + formatMs(onPath));
        f.evidence.push_back("model: each run one kernel launched once (the host's dispatch between the "
                             "run's first and last launch, the launch delays and gaps inside it go), "
                             "re-timed on the critical path; the low end keeps every kernel's time, the "
                             "high end only each run's longest (the memory traffic fusion saves): gain "
            + formatPct(gain) + " to " + formatPct(gainHigh));
        f.where.push_back(rowsWhere(c, frame.rank, rows));
        f.suggestion = "Fuse the elementwise ops after each matmul: torch.compile the module (Inductor fuses "
                       "pointwise chains into one kernel), or use fused ops (a Linear with its bias and "
                       "activation fused, fused optimizers, apex/TE fused layers).";
        f.gainBasis = "what-if: each run fused into one kernel launched once (its kernels' time kept), "
                      "re-timed on the critical path";
        f.whatIfEdits = fix;
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> kernelFusionRules()
{
    return { { kFusion, RuleScope::Rank, kernelFusion } };
}

} // namespace ks::core
