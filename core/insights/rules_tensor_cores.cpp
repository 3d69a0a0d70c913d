// tensor_core_unused: what the PyTorch TensorBoard plugin's overview reports
// as the Tensor Core share of kernel time and the ops eligible for Tensor Cores
// whose kernels did not use them (FP32 GEMMs and convolutions: AMP or bf16, or
// TF32, would put them on the matrix units). Kernels are told apart by name, as
// the plugin does, and an op is eligible by its name (core/analysis/kernels/
// tensor_cores.h: the rank overview's tensor_core_pct asks the same rule). The gain is the fix re-timed on
// the critical path: the eligible kernels run `speedup` (low end, 2 by default) to `max_speedup` (high end,
// 4) times faster, far below the matrix units' peak ratio (8-16x) since such kernels are often memory-bound;
// where the path then moves to the host or to other work, the faster kernels give back less than their own
// time saved.

#include "core/analysis/hta/launch_outliers.h"
#include "core/analysis/kernels/tensor_cores.h"
#include "core/insights/rule_support.h"

#include <algorithm>
#include <map>

namespace ks::core {

namespace {

    const RuleInfo kTensorCores { "tensor_core_unused",
        "ops eligible for Tensor Cores whose kernels do not use them (TensorBoard plugin)",
        { { "speedup", 2.0, "the low end's: how many times faster an eligible kernel runs on Tensor Cores" },
            { "max_speedup", 4.0, "the high end's" },
            { "min_gain_pct", 1.0, "report when the modelled speed-up gives back at least this %" } },
        "kernelDurations" };

    RuleOutcome tensorCoreUnused(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (!hasDeviceWork(frame))
            return RuleOutcome::na(std::string(kNoGpu));
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        TensorCoreKernels onTensorCores(frame);
        const TensorCoreShare share = tensorCoreShare(frame);
        const TimeNs kernelTime = share.computeKernelTime;
        const TimeNs tensorCoreTime = share.tensorCoreTime;
        if (kernelTime == 0)
            return RuleOutcome::na("no compute kernels on this rank");
        // The kernels eligible ops launched without Tensor Cores, by op.
        std::map<std::string, std::pair<TimeNs, std::size_t>> byOp;
        std::vector<Interval> kernels;
        std::vector<const FrameRow*> rows;
        for (const LaunchRecord& l : kernelLaunches(frame, c.options())) {
            const FrameRow* launch = frame.rowOfEvent(l.cpuEventIndex);
            const FrameRow* kernel = frame.rowOfEvent(l.gpuEventIndex);
            if (!launch || !kernel || kernel->kernelType != KernelType::Computation || onTensorCores(*kernel))
                continue;
            const std::string op = enclosingOperator(frame, *launch);
            if (!eligibleForTensorCores(op))
                continue;
            auto& [time, count] = byOp[op];
            time += kernel->dur;
            ++count;
            kernels.push_back({ kernel->ts, kernel->end() });
            rows.push_back(kernel);
        }
        if (kernels.empty())
            return RuleOutcome::none();
        const double speedup = std::max(1.0, p["speedup"]);
        const double speedupHigh = std::max(speedup, p["max_speedup"]);
        const std::vector<WhatIfRankEdits> fix { scaledRows(frame.rank, frame, rows, 1.0 / speedup) };
        const double gain = c.whatIfGainPct({}, fix).value_or(0);
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        const double gainHigh = std::max(gain,
            c.whatIfGainPct({}, { scaledRows(frame.rank, frame, rows, 1.0 / speedupHigh) }).value_or(0));
        const TimeNs onPath = c.pathTimeWithin(frame.rank, kernels);
        TimeNs eligible = 0;
        for (const auto& [op, tc] : byOp)
            eligible += tc.first;
        Finding f = newFinding(kTensorCores,
            "eligible ops run " + formatMs(eligible) + " of kernels without Tensor Cores", gain,
            { frame.rank });
        f.evidence.push_back("Tensor Core share of compute kernel time: "
            + formatPct(100.0 * static_cast<double>(tensorCoreTime) / static_cast<double>(kernelTime)) + " ("
            + formatMs(tensorCoreTime) + " of " + formatMs(kernelTime) + ")");
        std::vector<std::pair<std::string, std::pair<TimeNs, std::size_t>>> ops(byOp.begin(), byOp.end());
        std::sort(ops.begin(), ops.end(),
            [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
        for (std::size_t i = 0; i < std::min<std::size_t>(3, ops.size()); ++i)
            f.evidence.push_back(ops[i].first + ": " + std::to_string(ops[i].second.second) + " kernel(s), "
                + formatMs(ops[i].second.first) + " not on Tensor Cores");
        f.gainHighPct = gainHigh;
        f.evidence.push_back("their time on the critical path: " + formatMs(onPath) + " ("
            + formatPct(c.pctOfMeasured(onPath)) + " of " + c.measuredWhat() + ")");
        f.evidence.push_back("model: the eligible kernels run " + formatFactor(speedup) + " (low end) to "
            + formatFactor(speedupHigh) + " (high end) faster on Tensor Cores, the path re-timed (where it "
            + "then runs on the host or other work, less comes back): gain " + formatPct(gain) + " to "
            + formatPct(gainHigh));
        f.where.push_back(rowsWhere(c, frame.rank, rows));
        f.suggestion =
            "Run these ops in reduced precision: torch.autocast(\"cuda\", dtype=torch.bfloat16) (or "
            "float16 with a GradScaler), or allow TF32 for FP32 matmuls and convolutions "
            "(torch.set_float32_matmul_precision(\"high\"), torch.backends.cudnn.allow_tf32); keep "
            "matrix sizes multiples of 8 (16 for int8).";
        f.gainBasis = "what-if: the eligible kernels " + formatFactor(speedup)
            + " faster, re-timed on the critical path";
        f.whatIfEdits = fix;
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> tensorCoreRules()
{
    return { { kTensorCores, RuleScope::Rank, tensorCoreUnused } };
}

} // namespace ks::core
