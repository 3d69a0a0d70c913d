// The job-level and Kinetoscope-only analyses: operators (key_averages'
// rules), collectives (X2), the job's critical path with its stragglers and
// what-ifs (X3), the roofline (efficiency), the insights, and job summaries.
// Each asks what the CLI command of the same name asks (the session where the
// command asks the session), so the numbers are the CLI's.
#include "app/common/thread_pool_parallel_for.h"
#include "core/analysis/cross_rank/clock_offsets.h"
#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/analysis/cross_rank/what_if.h"
#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/perf_model.h"
#include "core/analysis/operators/operator_stats.h"
#include "core/insights/insights_format.h"
#include "core/session/efficiency_request.h"
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "core/summary/summary_insights.h"
#include "python/src/bindings.h"
#include "python/src/errors.h"
#include "python/src/interruptible.h"
#include "python/src/table_to_python.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace ks::python {

namespace {

    core::OperatorGrouping groupingOf(const std::string& text)
    {
        if (const auto grouping = core::operatorGroupingNamed(text))
            return *grouping;
        throwInvalidArgument("group_by takes name, shapes, node, rank or iteration, got \"" + text + "\"");
    }

    // A window in µs from the load's start ([from, to)), as `ops --window` and `roofline` take it.
    std::pair<std::optional<core::TimeNs>, std::optional<core::TimeNs>> windowOf(
        const Session& session, const std::optional<std::pair<double, double>>& window)
    {
        if (!window)
            return {};
        if (!(window->first < window->second))
            throwInvalidArgument("window needs (A, B) in microseconds with A < B");
        const core::TimeNs origin = session.traces().startNs();
        return { origin + static_cast<core::TimeNs>(window->first * 1000.0),
            origin + static_cast<core::TimeNs>(window->second * 1000.0) };
    }

    py::dict operators(Session& session, const std::string& by, const std::vector<std::int64_t>& ranks,
        const std::optional<std::pair<double, double>>& window, const py::object& progress)
    {
        core::OperatorStatsOptions options;
        options.by = groupingOf(by);
        options.ranks = ranks;
        std::tie(options.windowStart, options.windowEnd) = windowOf(session, window);
        std::optional<core::Table> table;
        runInterruptibly(
            [&](const core::CancelToken&, WorkProgress&) {
                table = core::operatorStatsTable(core::operatorStats(session.traces(), options), options.by);
            },
            progress);
        return tableToPython(*table);
    }

    py::dict collectives(Session& session, std::size_t top, bool estimatedClocks, const py::object& progress)
    {
        std::optional<core::AnalysisOutput> output;
        std::vector<std::string> notes;
        runInterruptibly(
            [&](const core::CancelToken&, WorkProgress&) {
                const std::shared_ptr<const core::CollectiveMatch> match =
                    session.analyses->collectiveMatch();
                notes = match->notes;
                core::CollectiveSkewOptions options;
                options.top = top;
                if (estimatedClocks && session.traces().ranks.size() >= 2)
                    options.clockOffsets = core::estimateClockOffsets(session.traces(), *match).offsets();
                output = core::collectiveSkew(session.traces(), *match, options);
            },
            progress);
        py::dict out = outputToPython(*output);
        out["notes"] = notes;
        return out;
    }

    std::vector<core::WhatIfRule> whatIfRules(const std::vector<std::string>& texts)
    {
        std::vector<core::WhatIfRule> rules;
        for (const std::string& text : texts) {
            auto rule = core::parseWhatIfRule(text);
            if (!rule)
                throwInvalidArgument(rule.error().message);
            rules.push_back(std::move(rule).value());
        }
        return rules;
    }

    // The job's path as `critical-path --all-ranks` prints it, and its
    // stragglers (`stragglers`): the session's kept path of the whole trace or
    // one iteration; with what-ifs the path again with scaled weights, beside it.
    py::dict jobPath(Session& session, std::optional<std::int64_t> iteration,
        const std::vector<std::string>& whatIfTexts, const py::object& progress)
    {
        const std::vector<core::WhatIfRule> rules = whatIfRules(whatIfTexts);
        std::optional<core::Result<std::shared_ptr<const core::SessionJobPath>>> kept;
        std::optional<core::Result<core::JobCriticalPath>> after;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress& sink) {
                sink.setStage("job critical path", 0, 1);
                const core::SessionWork work = sessionWork(session, cancel);
                core::AnalysisOptions analysis;
                analysis.cancel = &cancel;
                kept = session.analyses->jobPath(
                    core::JobPathScope { core::FrameScope { analysis, std::nullopt }, iteration }, work);
                if (!*kept || rules.empty() || !kept->value()->path())
                    return;
                core::JobPathOptions options;
                options.iteration = iteration;
                options.whatIf = core::WhatIfScaling(rules);
                options.cancel = &cancel;
                after = core::jobCriticalPath(*kept->value()->frames, options, work.parallelFor);
            },
            progress);
        if (!*kept)
            throwError(kept->error());
        const core::SessionJobPath& job = *kept->value();
        const core::JobCriticalPath* path = job.path();
        if (!path)
            throwNotApplicable(job.kept->path ? job.kept->path->error().message : "no job path");
        if (after && !*after)
            throwError(after->error());
        py::dict out;
        out["tables"] = outputToPython(core::jobCriticalPathTables(*path));
        out["stragglers"] = outputToPython(core::stragglersTable(*path));
        out["notes"] = path->notes;
        if (after) {
            out["what_if"] = outputToPython(core::whatIfTables(*path, after->value()));
            out["what_if_notes"] = after->value().notes;
        }
        return out;
    }

    std::vector<core::OpFamily> familiesOf(const std::vector<std::string>& names)
    {
        std::vector<core::OpFamily> families;
        for (const std::string& name : names) {
            const auto family = core::opFamilyFromName(name);
            if (!family)
                throwInvalidArgument("unknown op family '" + name + "'");
            families.push_back(*family);
        }
        return families;
    }

    // `roofline`: the session's efficiency report of the request the
    // Efficiency view makes, grouped and filtered as asked.
    py::dict roofline(Session& session, const std::string& by, const std::vector<std::string>& families,
        const std::vector<std::int64_t>& ranks, const std::vector<std::int64_t>& iterations,
        const std::optional<std::string>& device, const py::object& progress)
    {
        if (by != "shape" && by != "name")
            throwInvalidArgument("by takes shape or name, got \"" + by + "\"");
        core::EfficiencyRequest request = core::efficiencyRequest(session.traces(), ranks, iterations);
        request.options.by = by == "name" ? core::EfficiencyGrouping::Name : core::EfficiencyGrouping::Shape;
        request.options.families = familiesOf(families);
        std::string deviceNote = request.device.note;
        if (device) {
            const core::DeviceChoice choice = core::chooseDevice(session.traces(), device, std::nullopt);
            request.options.device = choice.peaks;
            deviceNote = choice.note;
        }
        std::shared_ptr<const core::EfficiencyReport> report;
        runInterruptibly([&](const core::CancelToken&,
                             WorkProgress&) { report = session.analyses->efficiency(request.options); },
            progress);
        if (report->error)
            throwError(*report->error);
        py::dict out;
        out["table"] = tableToPython(core::efficiencyTable(*report));
        out["rows"] = report->rows.size();
        out["shapes_recorded"] = report->shapesRecorded;
        out["device_note"] = deviceNote;
        out["notes"] = report->notes;
        out["skipped"] = core::skippedLines(*report);
        py::dict mfu;
        mfu["model_flops"] = report->mfu.modelFlops;
        mfu["step_time_us"] = report->mfu.stepTimeUs;
        mfu["peak_label"] = report->mfu.peakLabel;
        mfu["peak_tflops"] = report->mfu.peakTflops;
        mfu["mfu"] = report->mfu.mfu ? py::object(py::float_(*report->mfu.mfu)) : py::none();
        out["mfu"] = mfu;
        return out;
    }

    core::InsightsOptions insightsOptions(
        const std::vector<std::string>& rules, const std::optional<std::string>& device)
    {
        core::InsightsOptions options;
        if (!rules.empty()) {
            std::string joined;
            for (const std::string& r : rules)
                joined += (joined.empty() ? "" : ",") + r;
            auto parsed = core::parseRuleIds(joined);
            if (!parsed)
                throwInvalidArgument(parsed.error().message);
            options.rules = std::move(parsed).value();
        }
        options.device.name = device;
        return options;
    }

    // `insights`: the session's report (its job rules on the session's job path), as JSON text.
    std::string insights(Session& session, const py::dict& optionsDict, const std::vector<std::string>& rules,
        const std::optional<std::string>& device, const py::object& progress)
    {
        const core::AnalysisOptions analysis = analysisOptionsOf(optionsDict);
        const core::InsightsOptions options = insightsOptions(rules, device);
        std::optional<core::Result<std::shared_ptr<const core::InsightsReport>>> report;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress& sink) {
                sink.setStage("insights", 0, 1);
                report = session.analyses->insights(
                    core::FrameScope { analysis, std::nullopt }, options, sessionWork(session, cancel));
            },
            progress);
        if (!*report)
            throwError(report->error());
        return core::insightsJson(*report->value());
    }

    py::dict summarize(const std::vector<std::string>& paths, const std::string& out, bool htaCompat,
        int bins, unsigned jobs, const py::object& progress)
    {
        if (bins < 1 || bins > (1 << 20))
            throwInvalidArgument("bins needs a number from 1 to 1048576");
        std::optional<core::Result<core::SummarizeReport>> report;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress& sink) {
                core::SummarizeOptions options;
                options.analysis.mode =
                    htaCompat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
                options.bins = bins;
                options.cancel = &cancel;
                options.onFileDone = [&sink](std::size_t done, std::size_t total) {
                    sink.setStage("summarising", done, total);
                };
                report = core::summarizeJob(
                    paths, out, options, [jobs](std::size_t n, const std::function<void(std::size_t)>& body) {
                        app::parallelForOnThreads(n, body, jobs);
                    });
            },
            progress);
        if (!*report)
            throwError(report->error());
        const core::SummarizeReport& r = report->value();
        py::dict result;
        result["path"] = out;
        result["files_in_job"] = r.filesInJob;
        result["ranks_ok"] = r.ranksOk;
        py::list failures;
        for (const core::Error& e : r.failures)
            failures.append(e.describe());
        result["failures"] = failures;
        result["skipped"] = r.skipped;
        return result;
    }

    py::dict openSummary(const std::string& path)
    {
        std::optional<core::Result<core::JobOverview>> overview;
        {
            py::gil_scoped_release released;
            overview = core::readJobOverview(path);
        }
        if (!*overview)
            throwError(overview->error());
        const core::JobOverview& job = overview->value();
        py::dict out;
        out["path"] = job.path;
        py::list ranks;
        for (const core::JobRank& r : job.ranks) {
            py::dict row;
            row["rank"] = r.rank;
            row["file"] = r.file;
            row["status"] = r.status;
            row["error"] = r.error;
            row["size_bytes"] = r.sizeBytes;
            row["events"] = r.events;
            row["start_ns"] = r.startNs;
            row["end_ns"] = r.endNs;
            ranks.append(row);
        }
        out["ranks"] = ranks;
        out["rank_overview"] = tableToPython(job.rankOverview);
        out["collectives"] = outputToPython(job.collectiveSkew);
        return out;
    }

    std::string summaryInsights(const std::string& path, const std::vector<std::string>& rules,
        const std::vector<std::int64_t>& ranks)
    {
        const core::InsightsOptions options = insightsOptions(rules, std::nullopt);
        std::optional<core::Result<core::InsightsReport>> report;
        {
            py::gil_scoped_release released;
            report = core::insightsFromSummary(path, options, ranks);
        }
        if (!*report)
            throwError(report->error());
        return core::insightsJson(report->value());
    }

} // namespace

void bindJobAnalyses(py::module_& m, SessionClass& session)
{
    session
        .def("operators", &operators, py::arg("by") = "name", py::arg("ranks") = std::vector<std::int64_t> {},
            py::arg("window") = py::none(), py::arg("progress") = py::none())
        .def("collectives", &collectives, py::arg("top") = 20, py::arg("estimated_clocks") = false,
            py::arg("progress") = py::none())
        .def("job_path", &jobPath, py::arg("iteration") = py::none(),
            py::arg("what_if") = std::vector<std::string> {}, py::arg("progress") = py::none())
        .def("roofline", &roofline, py::arg("by") = "shape",
            py::arg("families") = std::vector<std::string> {},
            py::arg("ranks") = std::vector<std::int64_t> {},
            py::arg("iterations") = std::vector<std::int64_t> {}, py::arg("device") = py::none(),
            py::arg("progress") = py::none())
        .def("insights", &insights, py::arg("options"), py::arg("rules") = std::vector<std::string> {},
            py::arg("device") = py::none(), py::arg("progress") = py::none());
    m.def("summarize", &summarize, py::arg("paths"), py::arg("out"), py::arg("hta_compat") = false,
        py::arg("bins") = 2048, py::arg("jobs") = 0, py::arg("progress") = py::none());
    m.def("open_summary", &openSummary, py::arg("path"));
    m.def("summary_insights", &summaryInsights, py::arg("path"),
        py::arg("rules") = std::vector<std::string> {}, py::arg("ranks") = std::vector<std::int64_t> {});
}

} // namespace ks::python
