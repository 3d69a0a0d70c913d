// `kinetoscope-cli roofline`: per op and input shape the FLOPs and bytes of a call,
// kernel time, achieved TFLOP/s and TB/s, and against the device's peaks the roofline
// time, the bound and the share of the roofline reached; MFU of the steps below.

#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/inputs/device_peaks_cli.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/output/cli_output.h"
#include "core/analysis/efficiency/efficiency.h"

#include <filesystem>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli roofline PATH... [--by shape|name] [--family gemm,attention,...]\n"
        "       [--ranks R,..] [--iterations I,..] [--device NAME] [--peaks FILE] [--tracelens-compat]\n"
        "       [--format table|csv|json] [--out DIR] [--threads N]\n"
        "  Per op and input dims/dtypes: FLOPs and bytes per call, kernel time (union of the\n"
        "  call's kernels), achieved TFLOP/s and TB/s, and against the device's dense peaks the\n"
        "  roofline time, compute or memory bound and % of roofline; MFU of the steps.\n"
        "  Families: gemm, attention, conv, elementwise, reduce, norm, rope, moe, collective, mhc. The\n"
        "  device comes from the trace's deviceProperties; --device NAME forces a row of the peak table,\n"
        "  --peaks FILE gives one's own: {\"name\", \"memory_bandwidth_gbps\",\n"
        "  \"matrix_tflops\": {\"bf16\": ...}, \"vector_tflops\": {\"fp32\": ...}}.\n"
        "  --tracelens-compat reads the args as TraceLens does where it differs (no convolution\n"
        "  bias, optional norm tensors always present, \"False\" true, its dtype table) and links\n"
        "  GPU work as it does (ac2g flow starts); see docs/tracelens-differences.md.\n";

    std::optional<std::vector<core::OpFamily>> parseFamilies(const std::string& text, std::string& problem)
    {
        std::vector<core::OpFamily> families;
        std::stringstream in(text);
        std::string item;
        while (std::getline(in, item, ',')) {
            if (const auto f = core::opFamilyFromName(item)) {
                families.push_back(*f);
            } else {
                problem = "--family takes gemm, attention, conv, elementwise, reduce, norm, rope, moe, "
                          "collective or mhc, got \""
                    + item + "\"";
                return std::nullopt;
            }
        }
        return families;
    }

    void printSummary(const core::EfficiencyReport& report, const std::string& deviceNote, std::ostream& out)
    {
        out << deviceNote << '\n';
        const auto& m = report.mfu;
        out << std::setprecision(4);
        out << "model FLOPs: " << m.modelFlops / 1e12 << " TFLOP in " << m.stepTimeUs / 1000.0
            << " ms of steps";
        if (m.mfu)
            out << "; MFU " << *m.mfu * 100.0 << " % of " << m.peakLabel << " (" << m.peakTflops
                << " TFLOP/s)";
        out << '\n';
    }

} // namespace

const char* const kRooflineUsage = kUsage;

int runRooflineCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args,
        { "--by", "--family", "--ranks", "--iterations", kDeviceOption, kPeaksOption, "--format", "--out",
            "--threads" },
        { "--tracelens-compat" });
    std::string problem;
    core::EfficiencyOptions options;
    if (const auto by = parsed.value("--by")) {
        if (*by == "shape")
            options.by = core::EfficiencyGrouping::Shape;
        else if (*by == "name")
            options.by = core::EfficiencyGrouping::Name;
        else
            problem = "--by takes shape or name, got \"" + *by + "\"";
    }
    if (const auto families = parsed.value("--family"))
        if (auto list = parseFamilies(*families, problem))
            options.families = *list;
    if (auto ranks = parseNumberList(parsed.value("--ranks"), problem))
        options.ranks = *ranks;
    if (auto iterations = parseNumberList(parsed.value("--iterations"), problem))
        options.iterations = *iterations;
    options.tracelensCompat = parsed.flag("--tracelens-compat");
    const std::string format = outputFormat(parsed, problem);
    if (rejectArguments(parsed, problem, "kinetoscope-cli roofline", kUsage, err))
        return 2;
    std::optional<core::RooflineDevice> forced = deviceArguments(parsed, err);
    if (!forced)
        return 2;
    const std::optional<std::string> outDir = parsed.value("--out");
    if (outDir && !ensureDirectory(*outDir, "kinetoscope-cli", err))
        return 1;
    auto loaded = loadForCli(parsed.positional(), parsed, err);
    if (!loaded)
        return 1;
    const core::DeviceChoice device = core::chooseDevice(*loaded, forced->name, std::move(forced->peaksFile));
    options.device = device.peaks;
    const core::EfficiencyReport report = core::efficiencyReport(*loaded, options);
    if (report.error) { // args are re-read from the file, which changed
        err << report.error->describe() << '\n';
        return 1;
    }
    for (const std::string& note : report.notes)
        err << "note: " << note << '\n';
    if (!report.shapesRecorded)
        err << core::kNoShapesMessage << '\n';
    std::ostringstream text;
    // No row left: a table says so in words; csv and json stay parseable (an empty
    // table), the note goes to stderr.
    constexpr const char* kNoRows = "roofline: not applicable: no call of a modelled op";
    if (report.rows.empty() && format == "table")
        text << kNoRows << '\n';
    else
        printResult(core::HtaResult::dataFrame(core::efficiencyTable(report)), format, "roofline", text);
    if (report.rows.empty() && format != "table")
        err << kNoRows << '\n';
    std::ostringstream summary;
    printSummary(report, device.note, summary);
    for (const std::string& line : core::skippedLines(report))
        summary << line << '\n';
    if (outDir) {
        const std::string ext = format == "table" ? "txt" : format;
        return writeTextFile(
                   std::filesystem::path(*outDir) / ("roofline." + ext), text.str(), "kinetoscope-cli", err)
                && writeTextFile(std::filesystem::path(*outDir) / "roofline_summary.txt", summary.str(),
                    "kinetoscope-cli", err)
            ? 0
            : 1;
    }
    out << text.str();
    // Tables are for a person: the summary follows. Machine formats keep stdout parseable.
    (format == "table" ? out : err) << summary.str();
    return 0;
}

} // namespace ks::cli
