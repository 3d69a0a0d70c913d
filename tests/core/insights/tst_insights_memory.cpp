// The memory rules (core/insights/rules_memory.cpp) and memory_pressure's
// evidence from the memory analysis: each on a trace with its problem and on
// one without.

#include "core/insights/insights.h"
#include "tests/support/memory_traces.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace ks;
using namespace ks::tests;

namespace {

constexpr std::int64_t kMiB = 1024 * 1024;

struct Run
{
    QTemporaryDir dir;
    core::TraceSet set;
    core::FrameSet frames;
    core::InsightsReport report;

    Run(const MemoryTrace& trace, const std::string& rule)
        : set(loadRanks(dir, { trace.document() }))
        , frames(tests::frames(set, core::AnalysisMode::Default))
        , report(core::runInsights(frames, core::AnalysisOptions {}, options(rule)))
    {
    }

    static core::InsightsOptions options(const std::string& rule)
    {
        core::InsightsOptions o;
        o.rules = { rule };
        return o;
    }

    const core::Finding* finding(const std::string& rule) const
    {
        const auto it = std::find_if(report.findings.begin(), report.findings.end(),
            [&](const core::Finding& f) { return f.rule == rule; });
        return it == report.findings.end() ? nullptr : &*it;
    }

    bool evidenceHas(const std::string& rule, const std::string& text) const
    {
        const core::Finding* f = finding(rule);
        return f && std::any_of(f->evidence.begin(), f->evidence.end(), [&](const std::string& e) {
            return e.find(text) != std::string::npos;
        });
    }
};

// Three steps, each allocating `leak` bytes it never frees (in aten::cat) and
// a buffer it frees; a GPU kernel per step so the rank has a critical path.
MemoryTrace steps(std::int64_t leak, std::int64_t reservedExtra = 0)
{
    MemoryTrace t;
    t.deviceMemory(80'000 * kMiB);
    std::int64_t total = 1000 * kMiB;
    for (int step = 0; step < 3; ++step) {
        const std::int64_t base = step * 1000;
        t.op("ProfilerStep#" + std::to_string(step + 1), base, 900, "user_annotation");
        t.op("aten::cat", base + 10, 50);
        if (leak > 0) {
            total += leak;
            t.mem(base + 20, leak, 1000 + step, total, total + reservedExtra + 4 * kMiB);
        }
        t.op("aten::mm", base + 100, 50);
        t.mem(base + 110, 4 * kMiB, 77, total + 4 * kMiB, total + reservedExtra + 4 * kMiB);
        t.mem(base + 140, -4 * kMiB, 77, total, total + reservedExtra + 4 * kMiB);
        t.events.push_back(completeEvent("kernel", "gemm", kBaseUs + base + 120, 500, 0, 7,
            R"({"device":0,"stream":7,"correlation":)" + std::to_string(step + 1) + "}"));
        t.events.push_back(eventAtBase("cuda_runtime", "cudaLaunchKernel", base + 105, 5,
            R"({"correlation":)" + std::to_string(step + 1) + "}"));
    }
    return t;
}

} // namespace

class TestInsightsMemory : public QObject
{
    Q_OBJECT

private slots:

    void memoryGrowth()
    {
        Run leaking(steps(64 * kMiB), "memory_growth");
        const core::Finding* f = leaking.finding("memory_growth");
        QVERIFY(f);
        QCOMPARE(f->subject, std::string("GPU0"));
        QVERIFY(leaking.evidenceHas("memory_growth", "aten::cat"));
        QCOMPARE(f->iterations, (std::vector<std::int64_t> { 1, 2, 3 }));
        QCOMPARE(f->where.at(0).events.size(), std::size_t { 3 }); // the three allocations live at the end
        QVERIFY(!f->suggestion.empty());
        Run steady(steps(0), "memory_growth");
        QVERIFY(!steady.finding("memory_growth"));
    }

    void allocatorCacheOverhead()
    {
        Run cached(steps(0, 6000 * kMiB), "allocator_cache_overhead");
        const core::Finding* f = cached.finding("allocator_cache_overhead");
        QVERIFY(f);
        QVERIFY(cached.evidenceHas("allocator_cache_overhead", "reserved - allocated up to 6004.0 MiB")
            || cached.evidenceHas("allocator_cache_overhead", "reserved - allocated up to 6004 MiB"));
        QCOMPARE(f->where.at(0).ranges.size(), std::size_t { 1 });
        Run tight(steps(0, 0), "allocator_cache_overhead");
        QVERIFY(!tight.finding("allocator_cache_overhead"));
    }

    void outOfMemory()
    {
        MemoryTrace failing = steps(0);
        failing.op("aten::bmm", 2500, 100).outOfMemory(2510, 90'000 * kMiB, 1000 * kMiB, 1004 * kMiB);
        Run oom(failing, "out_of_memory");
        const core::Finding* f = oom.finding("out_of_memory");
        QVERIFY(f);
        QCOMPARE(f->severity, core::Severity::Critical);
        QVERIFY(f->title.find("aten::bmm") != std::string::npos);
        QVERIFY(oom.evidenceHas("out_of_memory", "90000 MiB failed"));
        Run fine(steps(0), "out_of_memory");
        QVERIFY(!fine.finding("out_of_memory"));
    }

    // Near the device's memory: the op at the peak and what would still fit.
    void memoryPressureNamesThePeak()
    {
        MemoryTrace near = steps(0);
        near.deviceMemory(1010 * kMiB);
        Run pressed(near, "memory_pressure");
        QVERIFY(pressed.finding("memory_pressure"));
        QVERIFY(pressed.evidenceHas("memory_pressure", "at the peak: aten::mm"));
        QVERIFY(pressed.evidenceHas("memory_pressure", "what would fit: 6 MiB more"));
        Run roomy(steps(0), "memory_pressure");
        QVERIFY(!roomy.finding("memory_pressure"));
    }
};

KS_TEST_MAIN(tst_insights_memory, TestInsightsMemory)
#include "tst_insights_memory.moc"
