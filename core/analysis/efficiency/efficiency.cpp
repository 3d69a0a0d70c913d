#include "core/analysis/efficiency/efficiency.h"

#include "core/analysis/efficiency/backward_calls.h"
#include "core/analysis/efficiency/iteration_annotation.h"
#include "core/analysis/efficiency/op_kernel_time.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

namespace ks::core {

namespace {

    bool wanted(const std::vector<std::int64_t>& list, std::int64_t value)
    {
        return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
    }

    struct Step
    {
        TimeNs start = 0, end = 0;
        std::int64_t number = -1;
    };

    // ProfilerStep#N spans of a rank, by start.
    std::vector<Step> profilerSteps(const RankTrace& t)
    {
        std::vector<Step> steps;
        for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
            const std::string_view name = t.sliceName(i);
            if (name.substr(0, 13) != "ProfilerStep#")
                continue;
            std::int64_t n = 0;
            const auto digits = name.substr(13);
            if (digits.empty()
                || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
                continue;
            for (char c : digits)
                n = n * 10 + (c - '0');
            steps.push_back({ t.slices.start[i], t.slices.end(i), n });
        }
        std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.start < b.start; });
        return steps;
    }

    const Step* stepAt(const std::vector<Step>& steps, TimeNs ts)
    {
        auto it = std::upper_bound(
            steps.begin(), steps.end(), ts, [](TimeNs v, const Step& s) { return v < s.start; });
        if (it == steps.begin())
            return nullptr;
        --it;
        return ts < it->end ? &*it : nullptr;
    }

    struct Accumulator
    {
        EfficiencyRow row;
        double flopsSum = 0, bytesSum = 0, rooflineSum = 0, computeSum = 0, memorySum = 0;
    };

    // Counts a call left out of the table, keeping the first as the example.
    void countSkip(EfficiencyReport& report, SkipReason why, const std::string& example)
    {
        const auto i = static_cast<std::size_t>(why);
        if (report.skipped[i]++ == 0)
            report.skippedExample[i] = example;
    }

    // name, dims, dtypes, strides, parameters, backward row
    using GroupKey = std::tuple<std::string, std::string, std::string, std::string, std::string, bool>;

    // A call's roofline: (compute time, memory time) in µs.
    std::pair<double, double> rooflineParts(
        const PerfEstimate& e, const std::optional<PeakChoice>& peak, const DevicePeaks& device)
    {
        const double compute = peak ? e.flops / (peak->tflops * 1e12) * 1e6 : 0;
        const double memory = e.bytes / (device.memoryBandwidthGBps * 1e9) * 1e6;
        return { compute, memory };
    }

} // namespace

EfficiencyReport efficiencyReport(const TraceSet& set, const EfficiencyOptions& options)
{
    EfficiencyReport report;
    report.device = options.device;
    std::map<GroupKey, Accumulator> groups;
    const ModelReading reading { options.tracelensCompat };
    std::map<std::string, double> flopsByPrecision; // matrix FLOPs in the steps, for MFU's peak
    std::int64_t callsWithShapes = 0, callsModelled = 0;
    std::string malformedExample;
    for (std::uint32_t r = 0; r < set.ranks.size(); ++r) {
        const RankTrace& t = *set.ranks[r];
        if (!wanted(options.ranks, t.rank))
            continue;
        const std::vector<Step> steps = profilerSteps(t);
        std::vector<ModelledCall> calls = modelledCalls(t, options.tracelensCompat);
        // Calls of the wanted families, iterations and window, in start order (a row's
        // first call is the one it shows), with or without GPU work.
        std::vector<ModelledCall> kept;
        TimeNs firstStart = 0, lastEnd = 0;
        for (const ModelledCall& c : calls) {
            if (!options.families.empty()
                && std::find(options.families.begin(), options.families.end(), c.model->family)
                    == options.families.end())
                continue;
            const TimeNs start = t.slices.start[c.slice];
            if ((options.windowStart && start < *options.windowStart)
                || (options.windowEnd && start >= *options.windowEnd))
                continue;
            const Step* step = stepAt(steps, start);
            if (!options.iterations.empty() && (!step || !wanted(options.iterations, step->number)))
                continue;
            ++callsModelled;
            kept.push_back(c);
        }
        std::stable_sort(kept.begin(), kept.end(), [&t](const ModelledCall& a, const ModelledCall& b) {
            return t.slices.start[a.slice] < t.slices.start[b.slice];
        });
        // Step time for MFU: the wanted steps, or the span of the calls with GPU work without steps.
        for (const Step& s : steps)
            if (wanted(options.iterations, s.number))
                report.mfu.stepTimeUs += double(s.end - s.start) / 1000.0;
        // Every args text the rank's rows read, in one pass of the file: the calls', their forward
        // calls' (ForwardLinks) and the sequence numbers that link forward calls to their backward
        // (BackwardLinks).
        std::vector<std::uint32_t>
            backwardOps; // calls whose shapes are their forward call's (apex's ConvBias_Backward)
        std::vector<std::uint32_t> forwardSlices; // calls with a backward row
        for (const ModelledCall& c : kept) {
            if (!c.model->forwardOp.empty())
                backwardOps.push_back(c.slice);
            if (c.model->backward)
                forwardSlices.push_back(c.slice);
        }
        const ForwardLinks forwardLinked = forwardLinks(t, calls, backwardOps);
        const BackwardLinks backwardLinked = backwardLinks(t, forwardSlices);
        ArgsWanted wanted;
        for (const ModelledCall& c : kept)
            wanted.text.push_back(c.slice);
        addWanted(forwardLinked, wanted);
        addWanted(backwardLinked, wanted);
        RankArgsTexts argsTexts;
        const std::optional<Error> readError = readArgsTexts(t, wanted, argsTexts);
        if (readError && !report.error)
            report.error = *readError;
        OpArgsParser argsParser;
        // A call's row: its kernel time in, its rates in the means when it ran on the GPU.
        const auto addTimeOnly = [&](const std::string& name, OpFamily family, bool backward,
                                     std::uint32_t slice, TimeNs kernelTime) {
            auto& acc = groups[GroupKey { name, "", "", "", "(no shapes)", backward }];
            acc.row.name = name;
            acc.row.family = family;
            acc.row.backward = backward;
            acc.row.modelled = false;
            ++acc.row.calls;
            acc.row.timedCalls += kernelTime > 0 ? 1 : 0;
            acc.row.kernelTimeUsSum += double(kernelTime) / 1000.0;
            acc.row.callList.push_back({ r, slice, kernelTime });
        };
        const auto addEstimate = [&](const std::string& name, OpFamily family, bool backward,
                                     const OpArgs& args, const PerfEstimate& e, std::uint32_t slice,
                                     TimeNs kernelTime) {
            GroupKey key { name, "", "", "", "", backward };
            if (options.by == EfficiencyGrouping::Shape)
                key = e.groupKey.empty()
                    ? GroupKey { name, args.dimsText, args.typesText, args.stridesText, e.params, backward }
                    : GroupKey { name, "", "", "", "tracelens: " + e.groupKey, backward };
            auto& acc = groups[key];
            EfficiencyRow& row = acc.row;
            if (row.calls == 0) {
                row.name = name;
                row.family = family;
                row.backward = backward;
                row.precision = e.precision;
                row.unit = e.unit;
                if (options.by == EfficiencyGrouping::Shape) {
                    row.dims = args.dimsText;
                    row.dtypes = args.typesText;
                    row.strides = args.stridesText;
                    row.params = e.params;
                }
                if (options.device)
                    row.peak = peakFor(*options.device, e.unit, e.precision);
            }
            const double kernelUs = double(kernelTime) / 1000.0;
            ++row.calls;
            row.kernelTimeUsSum += kernelUs;
            acc.flopsSum += e.flops;
            acc.bytesSum += e.bytes; // NaN stays NaN: the row has no bytes
            std::optional<double> roofline;
            if (options.device && e.bytesKnown()) {
                const auto [compute, memory] = rooflineParts(e, row.peak, *options.device);
                roofline = std::max(compute, memory);
                acc.computeSum += compute;
                acc.memorySum += memory;
                acc.rooflineSum += *roofline;
            }
            row.callList.push_back({ r, slice, kernelTime });
            if (kernelTime <= 0)
                return; // TraceLens's per-call rates are NaN here; its means skip them
            ++row.timedCalls;
            row.tflopsMean += e.flops / kernelUs / 1e6;
            row.tbpsMean += e.bytes / kernelUs / 1e6;
            if (roofline)
                row.rooflinePctMean += *roofline / kernelUs * 100.0;
            // MFU: forward and backward ops each once (a backward row re-counts backward ops).
            if (!backward && (steps.empty() || stepAt(steps, t.slices.start[slice]) != nullptr)) {
                report.mfu.modelFlops += e.flops;
                if (e.unit == ComputeUnit::Matrix)
                    flopsByPrecision[e.precision] += e.flops;
            }
        };
        std::optional<IterationAnnotations>
            annotations; // the step annotations, found once when a model reads them
        // After a failed read the links are left out: their args are incomplete.
        const ForwardCalls forwards =
            readError ? ForwardCalls {} : forwardCalls(t, calls, forwardLinked, argsTexts, reading);
        for (const ModelledCall& c : kept) {
            const std::string* text = argsTexts.textOf(c.slice);
            ParsedArgs parsed = text ? argsParser.parse(*text) : ParsedArgs {};
            if (parsed.args && c.model->readsAnnotation) {
                if (!annotations)
                    annotations.emplace(t);
                parsed.args->annotation = std::string(annotations->around(c.slice));
            }
            const std::string name(canonicalOpName(t.sliceName(c.slice))); // TraceLens's row name
            const TimeNs start = t.slices.start[c.slice];
            if (c.kernelTime <= 0 && report.callsWithoutKernel++ == 0)
                report.withoutKernelExample = name;
            if (c.kernelTime > 0) {
                if (firstStart == 0 || start < firstStart)
                    firstStart = start;
                lastEnd = std::max(lastEnd, t.slices.end(c.slice));
            }
            std::optional<OpArgs> own;
            if (!c.model->forwardOp.empty()) {
                const auto forward = forwards.argsOf.find(c.slice);
                if (forward == forwards.argsOf.end()) {
                    countSkip(report, SkipReason::NoForwardCall, name);
                    continue;
                }
                // The row shows the call's own args (its gradients), the model reads the forward's.
                own = std::move(parsed.args).value_or(OpArgs {});
                parsed = argsParser.parse(*forward->second);
            }
            if (!parsed.args) {
                const SkipReason why = parsed.problem == ArgsProblem::NoShapes ? SkipReason::NoShapes
                                                                               : SkipReason::MalformedDims;
                countSkip(report, why, name);
                if (why == SkipReason::MalformedDims && malformedExample.empty())
                    malformedExample = t.path + ": event #" + std::to_string(t.slices.eventIndex[c.slice])
                        + " \"" + name + "\"";
                addTimeOnly(name, c.model->family, false, c.slice, c.kernelTime); // one row per op name
                continue;
            }
            ++callsWithShapes;
            const ModelResult result = c.model->model(name, *parsed.args, reading);
            if (const auto* why = std::get_if<SkipReason>(&result)) {
                countSkip(report, *why, name + " " + parsed.args->dimsText + " " + parsed.args->typesText);
                continue;
            }
            addEstimate(name, c.model->family, false, own ? *own : *parsed.args,
                std::get<PerfEstimate>(result), c.slice, c.kernelTime);
        }
        // Backward rows of forward ops (TraceLens's _bwd sheets): the GPU work of the autograd
        // backward linked to each call by sequence number, under the forward op's name.
        const BackwardCalls linked = readError
            ? BackwardCalls {}
            : backwardCalls(t, backwardLinked, argsTexts, options.tracelensCompat);
        for (const ModelledCall& c : kept) {
            const auto found = linked.kernelTime.find(c.slice);
            if (found == linked.kernelTime.end())
                continue; // no backward node: TraceLens drops the call from its _bwd sheet
            const std::string* text = argsTexts.textOf(c.slice);
            const ParsedArgs parsed = text ? argsParser.parse(*text) : ParsedArgs {};
            const std::string name(canonicalOpName(t.sliceName(c.slice))); // TraceLens's row name
            if (!parsed.args) {
                addTimeOnly(name, c.model->family, true, c.slice, found->second);
                continue;
            }
            const ModelResult result = c.model->backward(name, *parsed.args, reading);
            if (const auto* e = std::get_if<PerfEstimate>(&result))
                addEstimate(name, c.model->family, true, *parsed.args, *e, c.slice, found->second);
        }
        if (steps.empty() && lastEnd > firstStart)
            report.mfu.stepTimeUs += double(lastEnd - firstStart) / 1000.0;
    }
    report.shapesRecorded = callsModelled == 0 || callsWithShapes > 0;
    for (auto& [key, acc] : groups) {
        EfficiencyRow& row = acc.row;
        // With shapes, calls without them are counted, not shown; without any, the time-only rows are the
        // table.
        if (row.modelled != report.shapesRecorded)
            continue;
        const double n = double(row.calls);
        if (row.modelled) {
            row.flops = acc.flopsSum / n;
            row.bytes = acc.bytesSum / n;
            const double timed = double(std::max<std::int64_t>(row.timedCalls, 1));
            row.tflopsMean /= timed;
            row.tbpsMean /= timed;
            row.rooflinePctMean /= timed;
            row.rooflineTimeUs = acc.rooflineSum / n;
            row.computeBound = acc.computeSum >= acc.memorySum;
        }
        report.rows.push_back(std::move(row));
    }
    std::stable_sort(report.rows.begin(), report.rows.end(),
        [](const EfficiencyRow& a, const EfficiencyRow& b) { return a.kernelTimeUsSum > b.kernelTimeUsSum; });
    if (!malformedExample.empty())
        report.notes.push_back("input dims or types that are not lists, first " + malformedExample);
    // MFU against the matrix peak of the precision with the most FLOPs.
    if (options.device && !flopsByPrecision.empty()) {
        const auto top = std::max_element(flopsByPrecision.begin(), flopsByPrecision.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
        if (const auto peak = peakFor(*options.device, ComputeUnit::Matrix, top->first)) {
            report.mfu.peakLabel = peak->label;
            report.mfu.peakTflops = peak->tflops;
            if (report.mfu.stepTimeUs > 0)
                report.mfu.mfu = report.mfu.modelFlops / (report.mfu.stepTimeUs * 1e-6 * peak->tflops * 1e12);
        }
    }
    return report;
}

} // namespace ks::core
