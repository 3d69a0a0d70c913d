#include "app/cli/commands/job_path_cli.h"

#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/output/cli_output.h"
#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "core/report/job_path_trace.h"
#include "core/report/table_text.h"

#include <charconv>
#include <ostream>

namespace ks::cli {

namespace {

    bool parseInteger(std::string_view text, std::int64_t& value)
    {
        const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
        return r.ec == std::errc() && r.ptr == text.data() + text.size();
    }

    bool parseMicroseconds(std::string_view text, core::TimeNs& ns)
    {
        double us = 0;
        const auto r = std::from_chars(text.data(), text.data() + text.size(), us);
        if (r.ec != std::errc() || r.ptr != text.data() + text.size())
            return false;
        ns = static_cast<core::TimeNs>(us * 1000.0);
        return true;
    }

    core::Table notesTable(const std::vector<std::string>& notes)
    {
        core::Table t;
        t.name = "notes";
        t.columns = { { "note", "" } };
        for (const std::string& n : notes)
            t.addRow({ n });
        return t;
    }

} // namespace

core::JobPathOptions jobPathOptions(const CliArgs& args, std::string& problem)
{
    core::JobPathOptions options;
    if (const auto text = args.value("--iteration")) {
        std::int64_t i = 0;
        if (parseInteger(*text, i))
            options.iteration = i;
        else
            problem = "--iteration needs a ProfilerStep number, got '" + *text + "'";
    }
    if (const auto text = args.value("--window")) {
        const std::size_t colon = text->find(':');
        core::CriticalPathWindow w;
        if (colon == std::string::npos
            || !parseMicroseconds(std::string_view(*text).substr(0, colon), w.start)
            || !parseMicroseconds(std::string_view(*text).substr(colon + 1), w.end) || w.end <= w.start)
            problem = "--window needs A:B in us with A < B, got '" + *text + "'";
        else
            options.window = w;
    }
    if (options.iteration && options.window)
        problem = "give --iteration or --window, not both";
    std::vector<core::WhatIfRule> rules;
    for (const std::string& text : args.values("--what-if")) {
        auto rule = core::parseWhatIfRule(text);
        if (!rule)
            problem = rule.error().message;
        else
            rules.push_back(std::move(rule).value());
    }
    options.whatIf = core::WhatIfScaling(std::move(rules));
    return options;
}

std::optional<core::JobCriticalPath> jobPathOf(const core::FrameSet& frames,
    const core::JobPathOptions& options, const CliArgs& args, const std::string& command, std::ostream& err)
{
    const unsigned threads = threadsOption(args);
    core::JobPathOptions releasing = options;
    releasing.releaseFreedMemory = app::releaseFreedMemory;
    auto job = core::jobCriticalPath(
        frames, releasing, [threads](std::size_t n, const std::function<void(std::size_t)>& body) {
            app::parallelForOnThreads(n, body, threads);
        });
    if (!job) {
        err << command << ": " << job.error().message << '\n';
        return std::nullopt;
    }
    return std::move(job).value();
}

core::AnalysisOutput withArrivalStragglers(
    core::AnalysisOutput stragglers, const core::ArrivalSummary& arrivals)
{
    core::AnalysisOutput arrivalTable = core::arrivalStragglersTable(arrivals);
    if (!arrivalTable.ok)
        return stragglers; // no collective on two ranks: nothing to add
    core::HtaResult dict;
    dict.kind = core::HtaResult::Kind::Dict;
    if (!stragglers.ok) {
        core::Table why;
        why.name = "stragglers";
        why.columns = { { "not_applicable", "" } };
        why.addRow({ stragglers.error });
        dict.entries.emplace_back("stragglers", core::HtaResult::dataFrame(std::move(why)));
    } else if (stragglers.result.kind == core::HtaResult::Kind::Dict) {
        dict = std::move(stragglers.result);
    } else {
        dict.entries.emplace_back("stragglers", std::move(stragglers.result));
    }
    dict.entries.emplace_back("arrival_stragglers", std::move(arrivalTable.result));
    return core::AnalysisOutput::of(std::move(dict));
}

void printWithNotes(core::AnalysisOutput output, const std::vector<std::string>& notes,
    const std::string& format, const std::string& title, std::ostream& out)
{
    if (!output.ok) {
        out << title << ": not applicable: " << output.error << '\n';
        for (const std::string& n : notes)
            out << "note: " << n << '\n';
        return;
    }
    core::HtaResult& result = output.result;
    if (result.kind != core::HtaResult::Kind::Dict) {
        core::HtaResult dict;
        dict.kind = core::HtaResult::Kind::Dict;
        dict.entries.emplace_back(title, std::move(result));
        result = std::move(dict);
    }
    if (format == "json") {
        result.entries.emplace_back("notes", core::HtaResult::dataFrame(notesTable(notes)));
        printResult(result, format, title, out);
        return;
    }
    for (const auto& [name, item] : result.entries) {
        if (format == "csv")
            out << "# " << name << '\n' << core::tableAsCsv(item.frame) << '\n';
        else
            out << core::resultAsText(name, item);
    }
    for (const std::string& n : notes)
        out << (format == "csv" ? "# note: " : "note: ") << n << '\n';
}

int runAllRanksCriticalPath(const CliArgs& args, const char* usage, std::ostream& out, std::ostream& err)
{
    const std::string command = "kinetoscope-cli critical-path";
    std::string problem;
    const core::JobPathOptions options = jobPathOptions(args, problem);
    const std::string format = outputFormat(args, problem);
    for (const char* single : { "--rank", "--annotation", "--instance", "--hta-compat", "--out" })
        if (args.value(single) || args.flag(single))
            problem = std::string(single) + " does not apply with --all-ranks";
    if (rejectArguments(args, problem, command, usage, err))
        return 2;
    const auto frames = loadFramesForCli(args, core::AnalysisOptions {}, command, err);
    if (!frames)
        return 1;
    // What-if reruns the path on the loaded frames with scaled weights.
    core::JobPathOptions baseline = options;
    baseline.whatIf = {};
    const auto before = jobPathOf(*frames, baseline, args, command, err);
    if (!before)
        return 1;
    if (const auto trace = args.value("--write-trace")) {
        if (!writeTextFile(*trace, core::jobPathTraceJson(*before, frames->minTs), command, err))
            return 1;
        err << "wrote " << *trace << ": " << before->path.segments.size() << " path segments on "
            << before->ranks.size() << " rank(s), " << before->path.hops.size() << " hop(s)\n";
    }
    if (options.whatIf.empty()) {
        printWithNotes(
            core::jobCriticalPathTables(*before), before->notes, format, "critical_path_all_ranks", out);
        return 0;
    }
    const auto after = jobPathOf(*frames, options, args, command, err);
    if (!after)
        return 1;
    printWithNotes(core::whatIfTables(*before, *after), after->notes, format, "critical_path_what_if", out);
    return 0;
}

} // namespace ks::cli
