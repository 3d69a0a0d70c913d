// HTA's get_gpu_user_annotation_breakdown (hta-semantics §16) in both modes, on
// tiny traces: statistics per annotation, the fold into `others` (Q5), the
// allowlist (Q15) and traces without annotations.

#include "core/analysis/hta/annotated_kernels.h"
#include "core/analysis/hta/user_annotation_breakdown.h"
#include "core/report/hta_json_writer.h"
#include "core/session/analysis_catalog.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <map>
#include <optional>
#include <utility>

using namespace ks;

namespace {

// Rank 0: GPU annotations fwd (10, 30 µs), bwd (50), opt (5); a CPU annotation step (100).
std::vector<std::string> annotatedRank()
{
    return {
        tests::eventAtBase("user_annotation", "step", 0, 100),
        tests::eventAtBase("gpu_user_annotation", "fwd", 0, 10, "{}", 2, 7),
        tests::eventAtBase("gpu_user_annotation", "fwd", 20, 30, "{}", 2, 7),
        tests::eventAtBase("gpu_user_annotation", "bwd", 60, 50, "{}", 2, 7),
        tests::eventAtBase("gpu_user_annotation", "opt", 120, 5, "{}", 2, 7),
    };
}

struct Stats
{
    double sum = 0, max = 0, min = 0, std = 0, mean = 0;
};

std::map<std::string, Stats> statsByName(const core::AnalysisOutput& out)
{
    namespace ua = core::user_annotation_breakdown;
    std::map<std::string, Stats> by;
    const core::Table& t = out.result.frame;
    const auto name = t.find(ua::kName);
    const auto at = [&t](const core::ColumnId& id) { return *t.find(id); };
    for (const auto& row : t.rows)
        by[core::cellAsText(row[*name])] = { *core::cellAsDouble(row[at(ua::kSum)]),
            *core::cellAsDouble(row[at(ua::kMax)]), *core::cellAsDouble(row[at(ua::kMin)]),
            *core::cellAsDouble(row[at(ua::kStddev)]), *core::cellAsDouble(row[at(ua::kMean)]) };
    return by;
}

// num_kernels 1 and duration ratio 1: one name listed, the rest folded into `others`.
core::UserAnnotationOptions oneListedName()
{
    core::UserAnnotationOptions ua;
    ua.numKernels = 1;
    ua.durationRatio = 1.0;
    return ua;
}

core::AnalysisOutput run(const core::TraceSet& set, core::AnalysisMode mode, core::UserAnnotationOptions ua)
{
    core::AnalysisOptions options;
    options.mode = mode;
    options.annotations = std::move(ua);
    return core::userAnnotationBreakdown(tests::frames(set, mode), options);
}

} // namespace

class TestUserAnnotations : public QObject
{
    Q_OBJECT

private slots:

    void statisticsPerAnnotation_data()
    {
        QTest::addColumn<bool>("compat");
        QTest::newRow("hta-compat") << true;
        QTest::newRow("default") << false;
    }

    void statisticsPerAnnotation()
    {
        QFETCH(bool, compat);
        const auto mode = compat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, annotatedRank()) });
        const core::AnalysisOutput gpu = run(set, mode, {});
        QVERIFY(gpu.ok);
        auto by = statsByName(gpu);
        QCOMPARE(by.size(), std::size_t(3));
        QCOMPARE(by["fwd"].sum, 40.0);
        QCOMPARE(by["fwd"].max, 30.0);
        QCOMPARE(by["fwd"].min, 10.0);
        QCOMPARE(by["fwd"].mean, 20.0);
        QVERIFY(std::abs(by["fwd"].std - 14.142135623730951) < 1e-12); // sample std of 10, 30
        QCOMPARE(by["bwd"].std, 0.0); // one value: NaN filled with 0
        // Rows sorted by rank, then name.
        const core::Table& t = gpu.result.frame;
        QCOMPARE(core::cellAsText(t.rows[0][0]), std::string("bwd"));
        QCOMPARE(core::cellAsText(t.rows[2][0]), std::string("opt"));

        core::UserAnnotationOptions cpuOptions;
        cpuOptions.useGpuAnnotation = false;
        by = statsByName(run(set, mode, cpuOptions));
        QCOMPARE(by.size(), std::size_t(1));
        QCOMPARE(by["step"].sum, 100.0);
    }

    // Q5: with more names than num_kernels, HTA regroups the totals.
    void foldIntoOthers()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, annotatedRank()) });
        const core::UserAnnotationOptions ua = oneListedName();
        auto compat = statsByName(run(set, core::AnalysisMode::HtaCompat, ua));
        QCOMPARE(compat.size(), std::size_t(2)); // bwd (50) listed; fwd (40) and opt (5) folded
        QCOMPARE(compat["bwd"].sum, 50.0);
        QCOMPARE(compat["others"].sum, 45.0);
        QCOMPARE(compat["others"].max, 40.0); // max of the member totals
        auto fixed = statsByName(run(set, core::AnalysisMode::Default, ua));
        QCOMPARE(fixed["others"].sum, 45.0);
        QCOMPARE(fixed["others"].max, 30.0); // max of the member annotations
        QCOMPARE(fixed["others"].min, 5.0);
        QCOMPARE(fixed["others"].mean, 15.0);
    }

    // Q15: HTA escapes the patterns (literal substrings); default mode reads regexes.
    void allowlist()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, annotatedRank()) });
        core::UserAnnotationOptions ua = oneListedName();
        ua.allowlist = { "^o" };
        QVERIFY(!statsByName(run(set, core::AnalysisMode::HtaCompat, ua)).count("opt"));
        QVERIFY(statsByName(run(set, core::AnalysisMode::Default, ua)).count("opt"));
        ua.allowlist = { "pt" };
        QVERIFY(statsByName(run(set, core::AnalysisMode::HtaCompat, ua)).count("opt"));
        ua.allowlist = { "(" };
        const core::AnalysisOutput bad = run(set, core::AnalysisMode::Default, ua);
        QVERIFY(!bad.ok);
        QVERIFY(bad.error.find("allowlist") != std::string::npos);
    }

    // HTA returns None without the category; default mode says why.
    void withoutAnnotations()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(
            dir, { tests::spacedRankDocument(0, { tests::eventAtBase("cpu_op", "aten::add", 0, 10) }) });
        const core::AnalysisOutput compat = run(set, core::AnalysisMode::HtaCompat, {});
        QVERIFY(compat.ok);
        QVERIFY(compat.result.kind == core::HtaResult::Kind::None);
        const core::AnalysisOutput fixed = run(set, core::AnalysisMode::Default, {});
        QVERIFY(!fixed.ok);
        QVERIFY(fixed.error.find("gpu_user_annotation") != std::string::npos);
    }

    // §17: each kernel gets the innermost annotation of its own stream that it overlaps.
    void kernelsWithTheirAnnotation_data() { statisticsPerAnnotation_data(); }

    void kernelsWithTheirAnnotation()
    {
        QFETCH(bool, compat);
        const auto mode = compat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("gpu_user_annotation", "outer", 0, 100, "{}", 2, 7),
                    tests::eventAtBase("gpu_user_annotation", "inner", 10, 20, "{}", 2, 7),
                    tests::eventAtBase("kernel", "k_inner", 15, 5, tests::correlationArgs(1, 7), 2, 7),
                    tests::eventAtBase("kernel", "k_outer", 50, 5, tests::correlationArgs(2, 7), 2, 7),
                    tests::eventAtBase(
                        "kernel", "k_other_stream", 15, 5, tests::correlationArgs(3, 8), 2, 8) }) });
        core::AnalysisOptions options;
        options.mode = mode;
        const core::AnalysisOutput out =
            core::gpuKernelsWithUserAnnotations(tests::frames(set, mode), options, 0);
        QVERIFY(out.ok);
        const core::Table& t = out.result.frame;
        const auto name = *t.find(core::annotated_kernels::kName);
        const auto annotation = *t.find(core::annotated_kernels::kUserAnnotation);
        std::map<std::string, std::string> by;
        for (const auto& row : t.rows)
            by[core::cellAsText(row[name])] = core::cellAsText(row[annotation]);
        QCOMPARE(by.size(), std::size_t(3));
        QCOMPARE(by["k_inner"], std::string("inner"));
        QCOMPARE(by["k_outer"], std::string("outer"));
        QCOMPARE(by["k_other_stream"], std::string());
        QCOMPARE(t.find(core::annotated_kernels::kRank).has_value(), !compat); // default: every rank
    }

    // Class A: HTA returns a slice of its trace frame, so every column of it: the parser
    // arguments of event_args_1.0.0.yaml in ARGS_DEFAULT order with their defaults, the raw
    // JSON value where the event has the key (lists stay lists), and `iteration`.
    void everyColumnOfHtasFrame()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("user_annotation", "ProfilerStep#5", 0, 100),
                    tests::eventAtBase("cuda_runtime", "cudaLaunchKernel", 10, 4, tests::correlationArgs(1)),
                    tests::eventAtBase("gpu_user_annotation", "fwd", 0, 100, "{}", 2, 7),
                    tests::eventAtBase("kernel", "k1", 20, 5,
                        R"json({"correlation":1,"stream":7,"External id":42,"bytes":128,)json"
                        R"json("memory bandwidth (GB/s)":1.5,"Input Dims":[[2,3],[]],"dtype":"Float","grid":[1,1,1]})json",
                        2, 7),
                    // A correlation without a launch: index_correlation 0, iteration -1 (§1.5).
                    tests::eventAtBase("kernel", "k2", 40, 5, tests::correlationArgs(99, 7), 2, 7),
                    // Stream 0 and not a cpu_op: HTA's iteration is NaN.
                    tests::eventAtBase("kernel", "k3", 60, 5, tests::correlationArgs(3, 0), 2, 0) }) });
        core::AnalysisOptions options;
        options.mode = core::AnalysisMode::HtaCompat;
        const core::AnalysisOutput out =
            core::gpuKernelsWithUserAnnotations(tests::frames(set, options.mode), options, 0);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.frame;
        // HTA's frame, without its symbol-id columns cat, name and user_annotation.
        const std::vector<std::string> hta { "index", "pid", "tid", "ts", "dur", "end", "stream",
            "correlation", "bytes", "memory_bw_gbps", "wait_on_stream", "wait_on_cuda_event_record_corr_id",
            "input_dims", "input_type", "input_strides", "external_id", "python_id", "python_parent_id",
            "collective_name", "in_msg_nelems", "out_msg_nelems", "msg_dtype", "group_size", "process_rank",
            "in_split_size", "out_split_size", "index_correlation", "iteration", "s_name", "s_cat",
            "s_user_annotation" };
        std::vector<std::string> columns;
        for (const core::Column& c : t.columns)
            columns.push_back(c.name);
        QCOMPARE(columns, hta);
        std::map<std::string, std::vector<core::Cell>> byKernel;
        for (const auto& row : t.rows)
            byKernel[core::cellAsText(row[t.columnIndex("s_name")])] = row.cells();
        QCOMPARE(byKernel.size(), std::size_t(3));
        const auto cell = [&](const std::string& kernel, const std::string& column) {
            return byKernel.at(kernel).at(t.columnIndex(column));
        };
        using core::Cell;
        QVERIFY(cell("k1", "bytes") == Cell(std::int64_t { 128 }));
        QVERIFY(cell("k1", "memory_bw_gbps") == Cell(1.5));
        QVERIFY(cell("k1", "external_id") == Cell(std::int64_t { 42 }));
        QVERIFY(cell("k1", "input_dims") == Cell(core::JsonText { "[[2,3],[]]" }));
        QVERIFY(cell("k1", "msg_dtype") == Cell(std::string("Float")));
        QVERIFY(cell("k1", "iteration") == Cell(std::int64_t { 5 }));
        // Defaults where the key is absent.
        QVERIFY(cell("k2", "bytes") == Cell(std::int64_t { -1 }));
        QVERIFY(cell("k2", "memory_bw_gbps") == Cell(0.0));
        QVERIFY(cell("k2", "input_dims") == Cell(std::string("-1")));
        QVERIFY(cell("k2", "input_type") == Cell(std::string("-1")));
        QVERIFY(cell("k2", "python_parent_id") == Cell(std::int64_t { -1 }));
        QVERIFY(cell("k2", "collective_name") == Cell(std::string()));
        QVERIFY(cell("k2", "in_msg_nelems") == Cell(std::int64_t { 0 }));
        QVERIFY(cell("k2", "group_size") == Cell(std::int64_t { 0 }));
        QVERIFY(cell("k2", "process_rank") == Cell(std::int64_t { -1 }));
        QVERIFY(cell("k2", "in_split_size") == Cell(std::string("[]")));
        QVERIFY(cell("k2", "out_split_size") == Cell(std::string("[]")));
        QVERIFY(cell("k2", "index_correlation") == Cell(std::int64_t { 0 }));
        QVERIFY(cell("k2", "iteration") == Cell(std::int64_t { -1 }));
        QVERIFY(cell("k3", "iteration") == Cell {});
        // A list is written as JSON, not as text.
        const std::string json = core::htaResultJson(out.result);
        QVERIFY2(json.find(R"("input_dims":[[2,3],[]])") != std::string::npos, json.c_str());
        QVERIFY(json.find(R"("iteration":null)") != std::string::npos);

        // Default mode keeps its own columns.
        options.mode = core::AnalysisMode::Default;
        const core::AnalysisOutput fixed =
            core::gpuKernelsWithUserAnnotations(tests::frames(set, options.mode), options, 0);
        QCOMPARE(fixed.result.frame.columnIndex("input_dims"), std::size_t(-1));
    }

    // A trace in which no event has "args": HTA's frame has no parser-argument columns (trace_parser.py
    // _compress_df, `if "args" in columns`), and --hta-compat writes none of the 18; the kernel filter
    // still takes an Event Sync (no stream needed). Default mode's columns do not change.
    void noArgsAnywhereNoArgColumns()
    {
        const auto bare = [](const std::string& cat, const std::string& name, std::int64_t ts,
                              std::int64_t dur) {
            return "{\"ph\":\"X\",\"cat\":\"" + cat + "\",\"name\":\"" + name
                + "\",\"pid\":2,\"tid\":7,\"ts\":" + std::to_string(tests::kBaseUs + ts)
                + ",\"dur\":" + std::to_string(dur) + "}";
        };
        std::vector<std::string> events { bare("gpu_user_annotation", "fwd", 0, 100),
            bare("cuda_sync", "Event Sync", 20, 5) };
        const auto columnsOf = [](const std::vector<std::string>& trace, core::AnalysisMode mode) {
            QTemporaryDir dir;
            const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, trace) });
            core::AnalysisOptions options;
            options.mode = mode;
            const core::AnalysisOutput out =
                core::gpuKernelsWithUserAnnotations(tests::frames(set, mode), options, 0);
            if (!out.ok)
                qFatal("%s", out.error.c_str());
            const core::Table& t = out.result.frame;
            std::vector<std::string> names;
            for (const core::Column& c : t.columns)
                names.push_back(c.name);
            if (mode == core::AnalysisMode::HtaCompat) {
                if (t.rows.size() != 1)
                    qFatal("%zu rows", t.rows.size());
                if (t.rows[0].cells().size() != names.size())
                    qFatal("a row of %zu cells under %zu columns", t.rows[0].cells().size(), names.size());
                if (core::cellAsText(t.rows[0][t.columnIndex("s_user_annotation")]) != "fwd")
                    qFatal("the Event Sync is not under its annotation");
            }
            return names;
        };
        const std::vector<std::string> hta { "index", "pid", "tid", "ts", "dur", "end", "stream",
            "correlation", "index_correlation", "iteration", "s_name", "s_cat", "s_user_annotation" };
        QCOMPARE(columnsOf(events, core::AnalysisMode::HtaCompat), hta);
        const std::vector<std::string> ours = columnsOf(events, core::AnalysisMode::Default);
        // One event with args (even empty ones) and the 18 come back, after correlation.
        events.push_back(tests::eventAtBase("cpu_op", "aten::add", 200, 10));
        const std::vector<std::string> full = columnsOf(events, core::AnalysisMode::HtaCompat);
        QCOMPARE(full.size(), hta.size() + 18);
        QCOMPARE(full[8], std::string("bytes"));
        QCOMPARE(columnsOf(events, core::AnalysisMode::Default), ours);
    }

    // HTA 0.6.1 cannot load such a file at all: add_iteration reads the `stream` column its
    // frame lacks. So under --hta-compat every call of the catalog says KeyError, and one
    // event with args is enough for the calls to answer again; default mode answers either way.
    void noArgsAnywhereHtaCannotLoad()
    {
        const auto bare = [](const std::string& cat, const std::string& name, std::int64_t ts,
                              std::int64_t dur) {
            return "{\"ph\":\"X\",\"cat\":\"" + cat + "\",\"name\":\"" + name
                + "\",\"pid\":2,\"tid\":7,\"ts\":" + std::to_string(tests::kBaseUs + ts)
                + ",\"dur\":" + std::to_string(dur) + "}";
        };
        std::vector<std::string> events { bare("gpu_user_annotation", "fwd", 0, 100),
            bare("cuda_sync", "Event Sync", 20, 5) };
        // The calls that fail, and the annotated-kernels call's answer.
        const auto run = [](const std::vector<std::string>& trace, core::AnalysisMode mode) {
            QTemporaryDir dir;
            const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, trace) });
            core::AnalysisOptions options;
            options.mode = mode;
            const core::FrameSet frames = tests::frames(set, mode);
            std::size_t keyErrors = 0;
            std::optional<core::AnalysisOutput> annotated;
            const std::vector<core::AnalysisCall> calls = core::analysisCalls(options, { 0 });
            for (const core::AnalysisCall& call : calls) {
                core::AnalysisOutput out = call.run(frames, call.options);
                if (!out.ok && out.error.rfind("KeyError: 'stream'", 0) == 0)
                    ++keyErrors;
                if (call.key == core::OutputKey::AnnotatedKernels)
                    annotated = std::move(out);
            }
            if (!annotated)
                qFatal("no annotated-kernels call");
            return std::make_pair(keyErrors == calls.size(), std::move(*annotated));
        };
        const auto [allFail, compat] = run(events, core::AnalysisMode::HtaCompat);
        QVERIFY(allFail);
        QVERIFY2(compat.error.find("rank 0") != std::string::npos, compat.error.c_str());
        const auto [defaultFails, fixed] = run(events, core::AnalysisMode::Default);
        QVERIFY(!defaultFails);
        QVERIFY2(fixed.ok, fixed.error.c_str());
        events.push_back(tests::eventAtBase("cpu_op", "aten::add", 200, 10));
        const auto [withArgsFail, loaded] = run(events, core::AnalysisMode::HtaCompat);
        QVERIFY(!withArgsFail);
        QVERIFY2(loaded.ok, loaded.error.c_str());
        QCOMPARE(loaded.result.frame.rows.size(), std::size_t(1));
    }

    // Class B: shorten_names shortens HTA's whole symbol table, the annotation too; a name
    // is kept whole only when it starts like a memory kernel (^(hip)?Memcpy, ^(hip)?Memset, ^dma).
    void annotationShortenedToo()

    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("gpu_user_annotation", "layer<2>::forward(x)", 0, 100, "{}", 2, 7),
                    tests::eventAtBase("kernel", "void foo_Memcpy_kernel<int>(int*)", 10, 5,
                        tests::correlationArgs(1, 7), 2, 7),
                    tests::eventAtBase("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 20, 5,
                        tests::correlationArgs(2, 7), 2, 7) }) });
        const auto rows = [&set](core::AnalysisMode mode) {
            core::AnalysisOptions options;
            options.mode = mode;
            const core::AnalysisOutput out =
                core::gpuKernelsWithUserAnnotations(tests::frames(set, mode), options, 0);
            const core::Table& t = out.result.frame;
            std::map<std::string, std::string> by;
            for (const auto& row : t.rows)
                by[core::cellAsText(row[*t.find(core::annotated_kernels::kName)])] =
                    core::cellAsText(row[*t.find(core::annotated_kernels::kUserAnnotation)]);
            return by;
        };
        const auto compat = rows(core::AnalysisMode::HtaCompat);
        QCOMPARE(compat.size(), std::size_t(2));
        QCOMPARE(compat.at("foo_Memcpy_kernel"), std::string("layer::forward"));
        QCOMPARE(compat.at("Memcpy HtoD (Pinned -> Device)"), std::string("layer::forward"));
        const auto fixed = rows(core::AnalysisMode::Default);
        QCOMPARE(fixed.at("void foo_Memcpy_kernel<int>(int*)"), std::string("layer<2>::forward(x)"));
    }

    // The kernel views' "Group by annotation": kernel time per annotation and
    // rank, kernels attributed as above, those outside every annotation in their own row.
    void kernelTimeByAnnotation_data() { statisticsPerAnnotation_data(); }

    void kernelTimeByAnnotation()
    {
        QFETCH(bool, compat);
        const auto mode = compat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("gpu_user_annotation", "outer", 0, 100, "{}", 2, 7),
                    tests::eventAtBase("gpu_user_annotation", "inner", 10, 20, "{}", 2, 7),
                    tests::eventAtBase("kernel", "k1", 12, 4, tests::correlationArgs(1, 7), 2, 7),
                    tests::eventAtBase("kernel", "k2", 18, 8, tests::correlationArgs(2, 7), 2, 7),
                    tests::eventAtBase("kernel", "k3", 50, 6, tests::correlationArgs(3, 7), 2, 7),
                    tests::eventAtBase("kernel", "k4", 200, 3, tests::correlationArgs(4, 7), 2, 7) }) });
        core::AnalysisOptions options;
        options.mode = mode;
        const core::AnalysisOutput out = core::kernelTimeByAnnotation(tests::frames(set, mode), options);
        QVERIFY(out.ok);
        namespace kba = core::kernels_by_annotation;
        const core::Table& t = out.result.frame;
        const auto at = [&t](const core::ColumnId& id) { return *t.find(id); };
        QCOMPARE(t.rows.size(), std::size_t(3));
        // Largest kernel time first: inner (4 + 8), outer (6), none (3).
        const std::vector<std::string> names { "inner", "outer", std::string(core::kNoAnnotation) };
        const std::vector<std::int64_t> kernels { 2, 1, 1 };
        const std::vector<double> sums { 12, 6, 3 };
        for (std::size_t r = 0; r < 3; ++r) {
            QCOMPARE(core::cellAsText(t.rows[r][at(kba::kName)]), names[r]);
            QCOMPARE(*core::cellAsDouble(t.rows[r][at(kba::kKernels)]), double(kernels[r]));
            QCOMPARE(*core::cellAsDouble(t.rows[r][at(kba::kSum)]), sums[r]);
            QCOMPARE(*core::cellAsDouble(t.rows[r][at(kba::kRank)]), 0.0);
        }
        QCOMPARE(*core::cellAsDouble(t.rows[0][at(kba::kMean)]), 6.0);
        QCOMPARE(*core::cellAsDouble(t.rows[0][at(kba::kMin)]), 4.0);
        QCOMPARE(*core::cellAsDouble(t.rows[0][at(kba::kMax)]), 8.0);

        // Without GPU annotations there is nothing to group by: said, not an empty table.
        QTemporaryDir plainDir;
        const auto plain = tests::loadRanks(plainDir,
            { tests::spacedRankDocument(
                0, { tests::eventAtBase("kernel", "k", 0, 4, tests::correlationArgs(1, 7), 2, 7) }) });
        const core::AnalysisOutput none = core::kernelTimeByAnnotation(tests::frames(plain, mode), options);
        QVERIFY(!none.ok);
        QVERIFY(none.error.find("gpu_user_annotation") != std::string::npos);
    }
};

KS_TEST_MAIN(tst_user_annotations, TestUserAnnotations)
#include "tst_user_annotations.moc"
