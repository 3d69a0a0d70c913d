// `kinetoscope-cli memory JOB.kssum`: what a job summary keeps of each rank's
// memory analysis (core/summary/summary_memory.h): per rank and device the
// peak, per ProfilerStep the growth, the operators that allocated most. The
// numbers `memory` prints on the traces, without them.

#include "app/cli/commands/memory_cli.h"
#include "app/cli/output/json_out.h"
#include "core/analysis/memory/memory_tables.h"
#include "core/report/table_text.h"
#include "core/summary/summary_memory.h"
#include "core/summary/summary_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>
#include <set>

namespace ks::cli {

namespace {

    namespace mc = core::memory_columns;

    bool wanted(const MemoryTraceArgs& args, std::int64_t rank, const std::string& device)
    {
        const auto& ranks = args.options.ranks;
        return (ranks.empty() || std::find(ranks.begin(), ranks.end(), rank) != ranks.end())
            && (!args.device || *args.device == device);
    }

    core::Cell optional(const std::optional<std::int64_t>& v)
    {
        return v ? core::Cell { *v } : core::Cell {};
    }

    core::Cell optionalReal(const std::optional<double>& v)
    {
        return v ? core::Cell { *v } : core::Cell {};
    }

    core::Table peaksTable(const core::SummaryMemory& m, const MemoryTraceArgs& args)
    {
        core::Table t;
        t.name = "memory_peaks";
        for (const core::ColumnId& c : { mc::kRank, mc::kDevice, mc::kPeakAllocated, mc::kPeakReserved,
                 mc::kPeakTime, mc::kPeakOperator, mc::kCapacity, mc::kPeakPercent })
            t.columns.push_back(c.column());
        for (const core::SummaryMemoryPeak& p : m.peaks) {
            if (!wanted(args, p.rank, p.device))
                continue;
            std::optional<double> percent;
            if (p.capacity && *p.capacity > 0)
                percent = 100.0 * static_cast<double>(p.peakAllocated) / static_cast<double>(*p.capacity);
            t.addRow({ p.rank, p.device, p.peakAllocated,
                p.peakReserved >= 0 ? core::Cell { p.peakReserved } : core::Cell {},
                optionalReal(p.peakTimeUs()), p.peakOp, optional(p.capacity), optionalReal(percent) });
        }
        return t;
    }

    // The rank's time base, for the steps' start as `memory` prints it.
    std::int64_t timeBaseOf(const core::SummaryMemory& m, std::int64_t rank)
    {
        for (const core::SummaryMemoryPeak& p : m.peaks)
            if (p.rank == rank)
                return p.timeBaseNs;
        return 0;
    }

    core::Table stepsTable(const core::SummaryMemory& m, const MemoryTraceArgs& args)
    {
        core::Table t;
        t.name = "memory_steps";
        for (const core::ColumnId& c : { mc::kRank, mc::kDevice, mc::kStep, mc::kStart, mc::kAtStart,
                 mc::kAtEnd, mc::kGrowth, mc::kStepPeak })
            t.columns.push_back(c.column());
        for (const core::SummaryMemoryStep& s : m.steps)
            if (wanted(args, s.rank, s.device))
                t.addRow({ s.rank, s.device, s.step,
                    static_cast<double>(s.startNs - timeBaseOf(m, s.rank)) / 1000.0, s.allocatedAtStart,
                    s.allocatedAtEnd, s.growth(), s.peakAllocated });
        return t;
    }

    core::Table topOpsTable(const core::SummaryMemory& m, const MemoryTraceArgs& args)
    {
        core::Table t;
        t.name = "memory_top_ops";
        for (const core::ColumnId& c :
            { mc::kRank, mc::kDevice, mc::kOperator, mc::kCalls, mc::kSelfAllocationSize,
                mc::kSelfAllocationCount, mc::kAllocationSize, mc::kSelfSizeIncrease })
            t.columns.push_back(c.column());
        for (const core::SummaryMemoryOp& o : m.topOps)
            if (wanted(args, o.rank, o.device))
                t.addRow({ o.rank, o.device, o.op, o.calls, o.selfAllocationSize, o.selfAllocationCount,
                    o.allocationSize, o.selfSizeIncrease });
        return t;
    }

    std::string jsonCell(const core::Cell& cell)
    {
        if (const auto* i = std::get_if<std::int64_t>(&cell))
            return std::to_string(*i);
        if (const auto* d = std::get_if<double>(&cell)) {
            if (!std::isfinite(*d))
                return "null";
            char buffer[32];
            return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, *d).ptr);
        }
        if (const auto* s = std::get_if<std::string>(&cell))
            return jsonQuote(*s);
        return "null";
    }

    // The rows of `t` for one rank as JSON objects named by column (the rank column left out).
    std::string rowsJson(const core::Table& t, std::int64_t rank)
    {
        std::string out = "[";
        for (const auto row : t.rows) {
            if (std::get<std::int64_t>(row[0]) != rank)
                continue;
            std::string object;
            for (std::size_t c = 1; c < t.columns.size(); ++c)
                object +=
                    (object.empty() ? "{" : ",") + jsonQuote(t.columns[c].name) + ":" + jsonCell(row[c]);
            out += (out.size() > 1 ? "," : "") + object + "}";
        }
        return out + "]";
    }

    std::string summaryJson(
        const std::string& path, const core::Table& peaks, const core::Table& steps, const core::Table& ops)
    {
        std::set<std::int64_t> ranks;
        for (const core::Table* t : { &peaks, &steps, &ops })
            for (const auto row : t->rows)
                ranks.insert(std::get<std::int64_t>(row[0]));
        std::string out = "{\"summary\":" + jsonQuote(path) + ",\"ranks\":[";
        bool first = true;
        for (const std::int64_t rank : ranks) {
            out += std::string(first ? "" : ",") + "{\"rank\":" + std::to_string(rank)
                + ",\"devices\":" + rowsJson(peaks, rank) + ",\"growth\":" + rowsJson(steps, rank)
                + ",\"top_operators\":" + rowsJson(ops, rank) + "}";
            first = false;
        }
        return out + "]}";
    }

} // namespace

int memoryFromSummary(const std::string& path, const MemoryTraceArgs& args, const std::string& csvTable,
    std::ostream& out, std::ostream& err)
{
    core::SummaryMeta meta;
    auto db = core::openSummary(path, meta);
    if (!db) {
        err << "kinetoscope-cli memory: " << db.error().describe() << '\n';
        return 1;
    }
    auto memory = core::readSummaryMemory(db.value());
    if (!memory) {
        err << "kinetoscope-cli memory: " << memory.error().describe() << '\n';
        return 1;
    }
    if (!memory.value().stored) {
        out << path << ": " << core::kNoSummaryMemoryNote << '\n';
        return kNoMemoryEventsExit;
    }
    const core::SummaryMemory& m = memory.value();
    if (m.peaks.empty()) {
        out << path << ": no rank has [memory] events (profile_memory=True records them)\n";
        return kNoMemoryEventsExit;
    }
    const core::Table peaks = peaksTable(m, args);
    const core::Table steps = stepsTable(m, args);
    const core::Table ops = topOpsTable(m, args);
    if (args.format == "json") {
        out << summaryJson(path, peaks, steps, ops) << '\n';
    } else if (args.format == "csv") {
        out << core::tableAsCsv(csvTable == "steps" ? steps : csvTable == "stats" ? ops : peaks);
    } else {
        out << core::resultAsText("memory per rank (from the summary)", core::HtaResult::dataFrame(peaks));
        if (!steps.rows.empty())
            out << core::resultAsText("memory per ProfilerStep", core::HtaResult::dataFrame(steps));
        out << core::resultAsText("top operators by self allocation size", core::HtaResult::dataFrame(ops));
    }
    return 0;
}

} // namespace ks::cli
