// `kinetoscope-cli memory`: where the memory goes. One command, two modes:
// PATH... analyses the traces' [memory] events (core/analysis/memory/): per
// device the peak, the curve, the allocations and what is live at the end, per
// step the growth, per operator the plugin's Memory Statistics (--tb-compat for
// the TensorBoard plugin's own numbers); --snapshot reads a PyTorch memory
// snapshot instead (memory_snapshot_cli.cpp).

#include "app/cli/commands/commands.h"
#include "app/cli/commands/memory_cli.h"
#include "app/cli/commands/memory_snapshot_cli.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/inputs/summary_input.h"
#include "app/cli/output/cli_output.h"
#include "core/analysis/memory/memory_tables.h"
#include "core/report/table_text.h"

#include <algorithm>
#include <optional>
#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli memory PATH... [--ranks R,..] [--iterations N,..] [--device CPU|GPU<i>]\n"
        "       [--format table|csv|json] [--table devices|stats|events|steps|oom|\n"
        "       categories|classified|stack_names] [--events]\n"
        "       [--curve-points N] [--tb-compat] [--hta-compat] [--threads N]\n"
        "  From the [memory] events (profile_memory=True): per device the peak allocated and reserved\n"
        "  memory, when, the op live there and its share of the device; memory allocated before the\n"
        "  trace and still live at its end; per ProfilerStep what it left allocated; per operator the\n"
        "  TensorBoard plugin's Memory Statistics; --events lists every allocation with its lifetime.\n"
        "  --iterations keeps the records inside those steps; --curve-points N adds each device's\n"
        "  curve down-sampled to N points (JSON); --table picks the CSV table. --tb-compat gives the\n"
        "  plugin's numbers where it is wrong (HIP devices, pairing across devices). HTA #223's tables\n"
        "  (categories, classified, stack_names) count ts from each rank's own first event;\n"
        "  --hta-compat from the earliest of all loaded ranks, as HTA does.\n"
        "  Exit 3 (one line) when no trace has [memory] events.\n"
        "       kinetoscope-cli memory JOB.kssum [--ranks R,..] [--device CPU|GPU<i>]\n"
        "       [--format table|csv|json] [--table devices|steps|stats]\n"
        "  A job summary (summarize): each rank's peak per device, growth per ProfilerStep and the\n"
        "  operators with the largest self allocation size, as stored when it was written.\n"
        "       kinetoscope-cli memory --snapshot FILE.pickle [--compare OTHER.pickle | --trace TRACE.json]\n"
        "       [--device N] [--top N] [--format table|csv|json]\n"
        "  A PyTorch memory snapshot (torch.cuda.memory._dump_snapshot(), the file memory_viz opens),\n"
        "  read without running any of it: per device reserved, allocated, active and requested bytes,\n"
        "  segments and blocks, the peak of the Active Memory Timeline (requested bytes, as memory_viz\n"
        "  draws it) with the allocations live there grouped by the program's own frame, the peak of\n"
        "  reserved memory, fragmentation and OOM events. --compare OTHER.pickle: a second snapshot\n"
        "  (after a change) beside it and the difference by frame. --device N: one device only;\n"
        "  --top N: frames listed per table (default 10). --trace TRACE.json[.gz]: the Kineto trace of\n"
        "  the same run; the snapshot's external_annotations matched with its ProfilerStep#N and\n"
        "  user_annotation ranges give the clock offset, then per range the memory at its start, its\n"
        "  end, its peak and the frames that allocated inside it.\n";

    // The rows of one device only, when --device is given.
    core::MemoryReport filteredByDevice(core::MemoryReport report, const std::optional<std::string>& device)
    {
        if (!device)
            return report;
        auto other = [&](const std::string& name) { return name != *device; };
        for (core::RankMemory& rank : report.ranks) {
            std::vector<core::DeviceMemorySummary> devices;
            std::vector<core::DeviceCurve> curves;
            for (std::size_t i = 0; i < rank.devices.size(); ++i)
                if (!other(rank.devices[i].device)) {
                    devices.push_back(rank.devices[i]);
                    curves.push_back(rank.curves[i]);
                }
            rank.devices = std::move(devices);
            rank.curves = std::move(curves);
            std::erase_if(rank.stats, [&](const core::OperatorMemoryRow& r) { return other(r.device); });
            std::erase_if(rank.allocations, [&](const core::AllocationRow& r) { return other(r.device); });
            std::erase_if(rank.steps, [&](const core::StepMemory& r) { return other(r.device); });
            std::erase_if(rank.outOfMemory, [&](const core::OutOfMemoryRow& r) { return other(r.device); });
            // HTA #223's rows by HTA's device_id: -1 the CPU, else the GPU's id.
            core::restrictCategoriesToDevice(
                rank.categories, *device == "CPU" ? -1 : std::stoll(device->substr(3)));
        }
        return report;
    }

    core::Table csvTable(const core::MemoryReport& report, const std::string& which)
    {
        if (which == "devices")
            return core::memoryDevicesTable(report);
        if (which == "events")
            return core::memoryEventsTable(report);
        if (which == "steps")
            return core::memoryStepsTable(report);
        if (which == "oom")
            return core::memoryOutOfMemoryTable(report);
        if (which == "categories")
            return core::memoryCategoriesTable(report);
        if (which == "classified")
            return core::memoryClassifiedTable(report);
        if (which == "stack_names")
            return core::memoryStackNamesTable(report);
        return core::memoryStatsTable(report);
    }

    void printTables(const core::MemoryReport& report, const MemoryTraceArgs& args, std::ostream& out)
    {
        out << core::resultAsText(
            "memory per device", core::HtaResult::dataFrame(core::memoryDevicesTable(report)));
        for (const core::RankMemory& rank : report.ranks)
            for (const core::DeviceMemorySummary& d : rank.devices)
                if (!d.peakStack.empty()) {
                    // The innermost frames: the outer ones are the script's entry and the step.
                    constexpr std::size_t kShown = 6;
                    const std::size_t first = d.peakStack.size() > kShown ? d.peakStack.size() - kShown : 0;
                    out << "rank " << rank.rank << ' ' << d.device
                        << " at the peak:" << (first > 0 ? " ..." : "");
                    for (std::size_t i = first; i < d.peakStack.size(); ++i)
                        out << (i == first && first == 0 ? " " : " > ") << d.peakStack[i];
                    out << '\n';
                }
        const core::Table steps = core::memoryStepsTable(report);
        if (!steps.rows.empty())
            out << core::resultAsText("memory per ProfilerStep", core::HtaResult::dataFrame(steps));
        const core::Table ooms = core::memoryOutOfMemoryTable(report);
        if (!ooms.rows.empty())
            out << core::resultAsText("out of memory", core::HtaResult::dataFrame(ooms));
        out << core::resultAsText(
            "memory statistics per operator", core::HtaResult::dataFrame(core::memoryStatsTable(report)));
        if (args.events)
            out << core::resultAsText(
                "memory events", core::HtaResult::dataFrame(core::memoryEventsTable(report)));
    }

} // namespace

const char* const kMemoryUsage = kUsage;

std::vector<std::string> memoryTraceValueOptions()
{
    return { "--ranks", "--iterations", "--device", "--format", "--table", "--curve-points", "--threads" };
}

std::vector<std::string> memoryTraceFlags()
{
    return { "--tb-compat", "--hta-compat", "--events" };
}

std::optional<std::string> memoryDeviceArgument(const std::string& text)
{
    if (text == "CPU" || text == "cpu")
        return std::string("CPU");
    std::string digits = text;
    if (digits.rfind("GPU", 0) == 0 || digits.rfind("gpu", 0) == 0)
        digits = digits.substr(3);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return "GPU" + std::to_string(std::stoll(digits));
}

int runMemoryCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    // A snapshot is a mode of its own with its own options (its --device is an index).
    const bool snapshot = std::any_of(args.begin(), args.end(),
        [](const std::string& a) { return a == "--snapshot" || a.rfind("--snapshot=", 0) == 0; });
    if (snapshot) {
        const CliArgs parsedSnapshot(
            args, { "--snapshot", "--compare", "--trace", "--device", "--top", "--format" }, {});
        if (!parsedSnapshot.ok()) {
            err << "kinetoscope-cli memory: " << parsedSnapshot.error() << '\n' << kUsage;
            return 2;
        }
        return runMemorySnapshotMode(parsedSnapshot, out, err);
    }
    CliArgs parsed(args, memoryTraceValueOptions(), memoryTraceFlags());
    std::string problem;
    MemoryTraceArgs a;
    a.options.tbCompat = parsed.flag("--tb-compat");
    a.options.htaTimeBase = parsed.flag("--hta-compat");
    a.events = parsed.flag("--events");
    if (auto ranks = parseNumberList(parsed.value("--ranks"), problem))
        a.options.ranks = *ranks;
    if (auto iterations = parseNumberList(parsed.value("--iterations"), problem))
        a.options.iterations = *iterations;
    if (const auto device = parsed.value("--device")) {
        a.device = memoryDeviceArgument(*device);
        if (!a.device)
            problem = "--device takes CPU, GPU<index> or an index, got \"" + *device + "\"";
    }
    if (const auto points = parsed.value("--curve-points")) {
        if (points->empty() || points->find_first_not_of("0123456789") != std::string::npos
            || std::stoull(*points) < 3)
            problem = "--curve-points takes a number of points (3 or more), got \"" + *points + "\"";
        else
            a.curvePoints = static_cast<std::size_t>(std::stoull(*points));
    }
    if (const auto table = parsed.value("--table")) {
        if (*table != "devices" && *table != "stats" && *table != "events" && *table != "steps"
            && *table != "oom" && *table != "categories" && *table != "classified" && *table != "stack_names")
            problem = "--table takes devices, stats, events, steps, oom, categories, classified or "
                      "stack_names, got \""
                + *table + "\"";
        else
            a.csvTable = *table;
    }
    a.format = outputFormat(parsed, problem);
    // HTA #223's tables cost more than the rest of the analysis together (a stack of
    // ids and a category per [memory] event): computed only when the output has them.
    a.options.htaCategories = a.format == "json"
        || (a.format == "csv"
            && (a.csvTable == "categories" || a.csvTable == "classified" || a.csvTable == "stack_names"));
    const auto summary = summaryArgument(parsed);
    if (summary && problem.empty()) {
        for (const char* option : { "--iterations", "--curve-points" })
            if (parsed.value(option))
                problem = std::string(option) + " does not apply to a job summary (it keeps no curves)";
        for (const char* flag : { "--tb-compat", "--hta-compat", "--events" })
            if (parsed.flag(flag))
                problem = std::string(flag) + " does not apply to a job summary (it keeps no allocations)";
        if (a.csvTable != "stats" && a.csvTable != "devices" && a.csvTable != "steps")
            problem = "--table on a job summary takes devices, steps or stats";
    }
    if (rejectArguments(parsed, problem, "kinetoscope-cli memory", kUsage, err))
        return 2;
    if (summary)
        return memoryFromSummary(*summary, a, parsed.value("--table").value_or("devices"), out, err);
    auto session = loadSessionForCli(parsed, err);
    if (!session)
        return 1;
    auto report = session->memory(a.options, cliWork(threadsOption(parsed)));
    if (!report) {
        err << "kinetoscope-cli memory: " << report.error().message << '\n';
        return 1;
    }
    int status = 0;
    for (const core::RankMemory& rank : report.value()->ranks) {
        if (rank.error) {
            err << rank.path << ": " << *rank.error << '\n';
            status = 1;
        }
        if (rank.records > 0)
            for (const std::string& note : rank.diagnostics)
                err << "note: " << rank.path << ": " << note << '\n';
    }
    if (status != 0)
        return status;
    if (!report.value()->anyRecords()) {
        out << core::noMemoryEventsLine(*report.value()) << '\n';
        return kNoMemoryEventsExit;
    }
    // A copy only when --device leaves rows out: HTA #223's rows are a row per [memory] event.
    std::optional<core::MemoryReport> filtered;
    if (a.device)
        filtered = filteredByDevice(*report.value(), a.device);
    const core::MemoryReport& shown = filtered ? *filtered : *report.value();
    if (a.format == "csv"
        && (a.csvTable == "categories" || a.csvTable == "classified" || a.csvTable == "stack_names"))
        err << "note: " << core::htaTimeBaseNote(shown) << '\n';
    if (a.format == "json") {
        writeMemoryReportJson(out, shown, a);
        out << '\n';
    } else if (a.format == "csv")
        out << core::tableAsCsv(csvTable(shown, a.csvTable));
    else
        printTables(shown, a, out);
    return 0;
}

} // namespace ks::cli
