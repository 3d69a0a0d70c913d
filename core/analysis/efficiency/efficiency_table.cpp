#include "core/analysis/efficiency/efficiency.h"

#include <set>

namespace ks::core {

DeviceChoice chooseDevice(const TraceSet& set, const std::optional<std::string>& deviceName,
    std::optional<DevicePeaks> peaksFile, const std::vector<DevicePeaks>& table)
{
    DeviceChoice choice;
    if (peaksFile) {
        choice.note = "peaks: " + peaksFile->name + " (--peaks)";
        choice.peaks = std::move(peaksFile);
        return choice;
    }
    if (deviceName) {
        if (const DevicePeaks* row = findDeviceByName(table, *deviceName)) {
            choice.peaks = *row;
            choice.note = "device: " + row->name + " (--device)";
        } else {
            choice.note = "unknown device \"" + *deviceName + "\" (--device): no roofline";
        }
        return choice;
    }
    std::set<std::string> unknown;
    for (const auto& rank : set.ranks)
        for (const DeviceProperties& d : rank->metadata.devices) {
            if (const DevicePeaks* row = findDevice(table, d)) {
                choice.peaks = *row;
                choice.note = "device: " + row->name + " (from deviceProperties \"" + d.name + "\""
                    + (d.gcnArchName.empty() ? "" : ", " + d.gcnArchName) + ")";
                return choice;
            }
            unknown.insert(d.name + (d.gcnArchName.empty() ? "" : " (" + d.gcnArchName + ")"));
        }
    if (unknown.empty())
        choice.note = "no deviceProperties in the trace: no roofline (give --device NAME or --peaks FILE)";
    else
        choice.note =
            "unknown device \"" + *unknown.begin() + "\": no roofline (give --device NAME or --peaks FILE)";
    return choice;
}

Table efficiencyTable(const EfficiencyReport& report)
{
    namespace col = efficiency_columns;
    Table table;
    table.name = "roofline";
    for (const ColumnId& c : { col::kName, col::kFamily, col::kDims, col::kDtypes, col::kCalls, col::kFlops,
             col::kBytes, col::kIntensity, col::kKernelTimeSum, col::kKernelTimeMean, col::kTflopsMean,
             col::kTbpsMean, col::kTflops, col::kPeak, col::kRooflineTime, col::kBound, col::kRooflinePct,
             col::kStrides, col::kParams, col::kDirection })
        table.columns.push_back(c.column());
    // Null where TraceLens has NaN: no bytes for a dtype without a size, no rate for a
    // row none of whose calls launched GPU work.
    const auto when = [](bool known, double value) { return known ? Cell { value } : Cell {}; };
    for (const EfficiencyRow& r : report.rows) {
        std::vector<Cell> cells { r.name, std::string(opFamilyName(r.family)), r.dims, r.dtypes, r.calls };
        const bool bytes = r.modelled && r.bytesKnown();
        const bool timed = r.timedCalls > 0;
        const bool roofline = bytes && r.peak.has_value();
        if (r.modelled)
            cells.insert(cells.end(), { r.flops, when(bytes, r.bytes), when(bytes, r.intensity()) });
        else
            cells.insert(cells.end(), { Cell {}, Cell {}, Cell {} });
        cells.emplace_back(r.kernelTimeUsSum);
        cells.emplace_back(r.kernelTimeUsMean());
        if (r.modelled)
            cells.insert(cells.end(),
                { when(timed, r.tflopsMean), when(timed && bytes, r.tbpsMean),
                    when(r.kernelTimeUsSum > 0, r.tflopsTotal()) });
        else
            cells.insert(cells.end(), { Cell {}, Cell {}, Cell {} });
        cells.emplace_back(r.modelled && r.peak ? Cell { r.peak->label } : Cell {});
        if (roofline)
            cells.insert(cells.end(),
                { r.rooflineTimeUs, std::string(r.computeBound ? "compute" : "memory"),
                    when(timed, r.rooflinePctMean) });
        else
            cells.insert(cells.end(), { Cell {}, Cell {}, Cell {} });
        cells.emplace_back(r.strides);
        cells.emplace_back(r.params);
        cells.emplace_back(std::string(r.backward ? "backward" : ""));
        table.addRow(cells);
    }
    return table;
}

std::vector<std::string> skippedLines(const EfficiencyReport& report)
{
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < kSkipReasonCount; ++i)
        if (report.skipped[i] > 0)
            lines.push_back(std::to_string(report.skipped[i])
                + " calls skipped: " + std::string(skipReasonText(static_cast<SkipReason>(i)))
                + " (first: " + report.skippedExample[i] + ")");
    if (report.callsWithoutKernel > 0)
        lines.push_back(std::to_string(report.callsWithoutKernel)
            + " calls launched no GPU work: kept in their rows with kernel time 0 (first: "
            + report.withoutKernelExample + ")");
    return lines;
}

} // namespace ks::core
