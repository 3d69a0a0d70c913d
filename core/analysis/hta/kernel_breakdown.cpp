#include "core/analysis/hta/kernel_breakdown.h"

#include "core/analysis/hta/kernel_breakdown_support.h"
#include "core/analysis/hta/name_stats.h"
#include "core/analysis/kernels/kernel_occupancy.h"
#include "core/analysis/kernels/tensor_cores.h"
#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace ks::core {

namespace {

    // ---- First frame: busy time per kernel type and overlap class (§5) ----

    struct SweepRow
    {
        double time = 0.0;
        int status = 0;
    };

    // The types reported, with their bits in HTA's order.
    std::vector<KernelType> analysedTypes(const AnalysisOptions& options)
    {
        std::vector<KernelType> types { KernelType::Computation, KernelType::Communication };
        if (options.kernels.includeMemoryKernels)
            types.push_back(KernelType::Memory);
        return types;
    }

    // "COMPUTATION overlapping MEMORY": the names of the set bits, in type order.
    std::string maskLabel(int mask, const std::vector<KernelType>& types)
    {
        std::string label;
        for (std::size_t i = 0; i < types.size(); ++i) {
            if ((mask & (1 << i)) == 0)
                continue;
            label += label.empty() ? "" : " overlapping ";
            label += kernelTypeName(types[i]);
        }
        return label;
    }

    // HTA appends each type's merged starts then ends (pandas melt) and re-sorts the
    // whole table by time after each type with numpy's quicksort. At equal times the
    // intermediate running values depend on that order, and a transient mask yields a
    // zero-length row whose label still appears in the output, so the order is copied.
    std::vector<SweepRow> compatSweepRows(const std::vector<std::vector<Span>>& mergedPerType)
    {
        std::vector<SweepRow> rows;
        for (std::size_t i = 0; i < mergedPerType.size(); ++i) {
            const int bit = 1 << i;
            for (const Span& s : mergedPerType[i])
                rows.push_back({ s.start, bit });
            for (const Span& s : mergedPerType[i])
                rows.push_back({ s.end, -bit });
            std::vector<double> times;
            times.reserve(rows.size());
            for (const SweepRow& r : rows)
                times.push_back(r.time);
            std::vector<SweepRow> sorted;
            sorted.reserve(rows.size());
            for (const std::size_t k : numpyArgsort(times))
                sorted.push_back(rows[k]);
            rows = std::move(sorted);
        }
        return rows;
    }

    // Per label, the time spent with that mask of active types. Compat: every row with a
    // positive running value counts, its length truncated to whole µs (astype(int)).
    // Default: all changes at one time apply together, so no zero-length classes appear.
    std::map<std::string, double> typeTimes(
        const std::vector<KernelSpan>& spans, const std::vector<KernelType>& types, AnalysisMode mode)
    {
        std::vector<std::vector<Span>> merged;
        merged.reserve(types.size());
        for (const KernelType type : types)
            merged.push_back(mergeSpans(spansOfType(spans, type), mode));
        std::vector<SweepRow> rows;
        if (mode == AnalysisMode::HtaCompat) {
            rows = compatSweepRows(merged);
        } else {
            for (std::size_t i = 0; i < merged.size(); ++i)
                for (const Span& s : merged[i]) {
                    rows.push_back({ s.start, 1 << i });
                    rows.push_back({ s.end, -(1 << i) });
                }
            std::stable_sort(rows.begin(), rows.end(),
                [](const SweepRow& a, const SweepRow& b) { return a.time < b.time; });
        }
        std::map<std::string, double> times;
        int running = 0;
        for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
            running += rows[i].status;
            const double length = rows[i + 1].time - rows[i].time;
            if (running <= 0 || (mode != AnalysisMode::HtaCompat && length <= 0.0))
                continue;
            times[maskLabel(running, types)] += mode == AnalysisMode::HtaCompat ? std::trunc(length) : length;
        }
        return times;
    }

    Table typeTable(const std::map<std::string, double>& totals, AnalysisMode mode)
    {
        const bool compat = mode == AnalysisMode::HtaCompat;
        Table t;
        t.name = "kernel_type_breakdown";
        t.columns = { kernel_breakdown::kKernelType.column(), kernel_breakdown::kTypeSum.column(mode),
            kernel_breakdown::kPercentage.column() };
        std::vector<std::pair<std::string, double>> rows(totals.begin(), totals.end());
        // sum descending; HTA's order among equal sums is arbitrary, label order here.
        std::stable_sort(
            rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        double all = 0.0;
        for (const auto& [label, sum] : rows)
            all += sum;
        for (const auto& [label, sum] : rows) {
            std::vector<Cell> row(3);
            row[0] = label;
            if (compat)
                row[1] = static_cast<std::int64_t>(sum);
            else
                row[1] = spanUnitsToUs(sum, mode);
            if (const double pct = roundHalfEven(sum / all * 100.0, 1); !std::isnan(pct))
                row[2] = pct;
            t.addRow(row);
        }
        return t;
    }

    // ---- Second frame: statistics per kernel name (§5) ----

    std::vector<NameStats> aggregateKernels(
        const std::vector<KernelSpan>& spans, const KernelBreakdownOptions& options, AnalysisMode mode)
    {
        std::map<std::string, std::vector<double>> byName;
        for (const KernelSpan& s : spans)
            byName[std::string(s.name)].push_back(s.dur);
        return aggregateByName(byName, { options.durationRatio, options.numKernels, {} }, mode);
    }

    using OccupancyByName = std::map<std::string, OccupancyMean, std::less<>>;

    // Per kernel type and name, the launch figures of the rank's kernels (one pass over
    // the file for all types). A rank whose args cannot be read again (the file changed)
    // gets empty cells, as a kernel without the args does: the figures are extra
    // columns, not worth failing the table for.
    std::map<KernelType, OccupancyByName> occupancyByName(
        const RankFrame& frame, const std::vector<KernelSpan>& spans)
    {
        std::map<std::uint32_t, const KernelSpan*> bySlice;
        std::vector<std::uint32_t> slices;
        for (const KernelSpan& s : spans)
            if (isKernelCategory(frame.category(*s.row)) && bySlice.emplace(s.row->slice, &s).second)
                slices.push_back(s.row->slice);
        std::map<KernelType, OccupancyByName> out;
        auto read = readKernelOccupancy(*frame.trace, std::move(slices));
        if (!read)
            return out;
        for (const KernelOccupancy& k : read.value()) {
            const KernelSpan& span = *bySlice.at(k.slice);
            out[span.type][std::string(span.name)].add(k, span.dur);
        }
        return out;
    }

    // A row's figures: its name's, or for `others` those of every name folded into it.
    OccupancyMean rowOccupancy(
        const NameStats& row, const std::vector<NameStats>& kept, const OccupancyByName& byName)
    {
        if (row.name != "others" || byName.contains(row.name)) {
            const auto it = byName.find(row.name);
            return it == byName.end() ? OccupancyMean {} : it->second;
        }
        OccupancyMean folded;
        // Not a structured binding: clang 14 cannot capture one in a lambda.
        for (const auto& entry : byName) {
            const auto& name = entry.first;
            if (std::none_of(
                    kept.begin(), kept.end(), [&name](const NameStats& k) { return k.name == name; }))
                folded.add(entry.second);
        }
        return folded;
    }

    // Per compute kernel name, its time and the part of it on Tensor Cores (span units).
    struct TensorCoreTime
    {
        double all = 0.0;
        double onTensorCores = 0.0;
        bool usesTensorCores = false; // the name's, asked once
    };

    using TensorCoreByName = std::map<std::string, TensorCoreTime, std::less<>>;

    TensorCoreByName tensorCoreByName(const std::vector<KernelSpan>& ofType)
    {
        TensorCoreByName byName;
        for (const KernelSpan& s : ofType) {
            const auto [it, fresh] = byName.try_emplace(std::string(s.name));
            if (fresh)
                it->second.usesTensorCores = usesTensorCores(s.name);
            it->second.all += s.dur;
            if (it->second.usesTensorCores)
                it->second.onTensorCores += s.dur;
        }
        return byName;
    }

    // A row's share: its name's, or for `others` that of every name folded into it.
    std::optional<double> rowTensorCorePct(
        const NameStats& row, const std::vector<NameStats>& kept, const TensorCoreByName& byName)
    {
        TensorCoreTime time;
        if (row.name != "others" || byName.contains(row.name)) {
            const auto it = byName.find(row.name);
            if (it != byName.end())
                time = it->second;
        } else {
            for (const auto& entry : byName)
                if (std::none_of(kept.begin(), kept.end(),
                        [&entry](const NameStats& k) { return k.name == entry.first; })) {
                    time.all += entry.second.all;
                    time.onTensorCores += entry.second.onTensorCores;
                }
        }
        if (!(time.all > 0.0))
            return std::nullopt;
        return 100.0 * time.onTensorCores / time.all;
    }

    Table kernelTable(AnalysisMode mode)
    {
        Table t;
        t.name = "kernel_breakdown";
        using namespace kernel_breakdown;
        for (const ColumnId& c : { kName, kSum, kMax, kMin, kStddev, kMean, kKernelType, kRank })
            t.columns.push_back(c.column(mode));
        if (mode != AnalysisMode::HtaCompat)
            for (const ColumnId& c : { kEstSmEfficiency, kAchievedOccupancy, kTensorCorePct })
                t.columns.push_back(c.column(mode));
        return t;
    }

    struct KernelRow
    {
        NameStats stats;
        KernelType type = KernelType::Other;
        std::int64_t rank = 0;
        OccupancyMean occupancy;
        std::optional<double> tensorCorePct;
    };

    Cell optionalCell(const std::optional<double>& v)
    {
        return v ? Cell { *v } : Cell {};
    }

    void addKernelRows(Table& table, std::vector<KernelRow> rows, AnalysisMode mode)
    {
        // HTA sorts by kernel_type, name, rank (strings byte-wise).
        std::sort(rows.begin(), rows.end(), [](const KernelRow& a, const KernelRow& b) {
            const std::string_view ta = kernelTypeName(a.type);
            const std::string_view tb = kernelTypeName(b.type);
            if (ta != tb)
                return ta < tb;
            if (a.stats.name != b.stats.name)
                return a.stats.name < b.stats.name;
            return a.rank < b.rank;
        });
        for (const KernelRow& r : rows) {
            const NameStats& s = r.stats;
            std::vector<Cell> row { s.name, spanUnitsToUs(s.sum, mode), spanUnitsToUs(s.max, mode),
                spanUnitsToUs(s.min, mode), spanUnitsToUs(s.std, mode), spanUnitsToUs(s.mean, mode),
                std::string(kernelTypeName(r.type)), r.rank };
            if (table.columns.size() > row.size()) {
                row.push_back(optionalCell(r.occupancy.smEfficiencyPct()));
                row.push_back(optionalCell(r.occupancy.occupancyPct()));
                row.push_back(optionalCell(r.tensorCorePct));
            }
            table.addRow(row);
        }
    }

} // namespace

AnalysisOutput gpuKernelBreakdown(const FrameSet& frames, const AnalysisOptions& options)
{
    const double ratio = options.kernels.durationRatio;
    if (!(ratio >= 0.0 && ratio <= 1.0)) // pandas' quantile raises outside [0, 1]
        return AnalysisOutput::notApplicable("duration ratio must be between 0 and 1");
    const AnalysisMode mode = options.mode;
    const std::vector<KernelType> types = analysedTypes(options);
    std::map<std::string, double> totals;
    std::vector<KernelRow> kernelRows;
    for (const RankFrame& frame : frames.ranks) {
        const std::vector<KernelSpan> spans = gpuWorkSpans(frame, mode);
        for (const auto& [label, time] : typeTimes(spans, types, mode))
            totals[label] += time;
        const bool figures = mode != AnalysisMode::HtaCompat && options.kernels.occupancyColumns;
        auto occupancyOfType =
            figures ? occupancyByName(frame, spans) : std::map<KernelType, OccupancyByName> {};
        for (const KernelType type : types) {
            const std::vector<KernelSpan> ofType = spansOfType(spans, type);
            if (ofType.empty())
                continue;
            std::vector<NameStats> stats = aggregateKernels(ofType, options.kernels, mode);
            const OccupancyByName& byName = occupancyOfType[type];
            const TensorCoreByName tensorCores =
                mode != AnalysisMode::HtaCompat && type == KernelType::Computation ? tensorCoreByName(ofType)
                                                                                   : TensorCoreByName {};
            std::vector<OccupancyMean> occupancy; // before the names move into the rows
            std::vector<std::optional<double>> tensorCorePct;
            for (const NameStats& s : stats) {
                occupancy.push_back(rowOccupancy(s, stats, byName));
                tensorCorePct.push_back(rowTensorCorePct(s, stats, tensorCores));
            }
            for (std::size_t i = 0; i < stats.size(); ++i)
                kernelRows.push_back(
                    { std::move(stats[i]), type, frame.rank, occupancy[i], tensorCorePct[i] });
        }
    }
    Table kernels = kernelTable(mode);
    addKernelRows(kernels, std::move(kernelRows), mode);

    HtaResult result;
    result.kind = HtaResult::Kind::Tuple;
    result.items.push_back(HtaResult::dataFrame(typeTable(totals, mode)));
    result.items.push_back(HtaResult::dataFrame(std::move(kernels)));
    return AnalysisOutput::of(std::move(result));
}

} // namespace ks::core
