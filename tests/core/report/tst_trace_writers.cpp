// Augmented trace writers: the streaming copy (valid JSON, every event and
// top-level key kept, appended events last, gzip or plain as asked, the input
// never modified or overwritten), HTA's output names, the counter events of A5
// computed by hand, A7's pattern annotation with and without HTA's compression, and
// the arrow ends of HTA's overlaid critical path (Python's number semantics).

#include "core/analysis/kernels/kernel_sequences.h"
#include "core/io/gzip/input_stream.h"
#include "core/report/counters_trace_writer.h"
#include "core/report/hta_overlay_flows.h"
#include "core/report/sequences_trace_writer.h"
#include "core/report/trace_writer.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <simdjson.h>

#include <fstream>
#include <sstream>

using namespace ks;

namespace {

using tests::eventAtBase;

std::string launch(const char* name, int ts, int correlation)
{
    return eventAtBase("cuda_runtime", name, ts, 5, R"({"correlation":)" + std::to_string(correlation) + "}");
}

std::string gpu(
    const char* cat, const char* name, int ts, int dur, int correlation, const std::string& extra = "")
{
    return eventAtBase(cat, name, ts, dur,
        R"({"stream":7,"correlation":)" + std::to_string(correlation) + extra + "}", 0, 7);
}

// Keys before and after traceEvents, a metadata event, the profiler's span.
std::string document(const std::vector<std::string>& events)
{
    std::string doc = R"({"schemaVersion": 1, "distributedInfo": {"rank": 0}, "traceEvents": [)";
    doc += R"({"ph":"M","name":"process_name","pid":0,"args":{"name":"GPU 0"}})";
    for (const std::string& e : events)
        doc += ",\n  " + e;
    doc +=
        R"x(, {"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler",)x"
        R"("ts":1000000,"dur":5000,"args":{"Op count":0}})";
    // A key after traceEvents, with an escaped quote in its value.
    return doc + R"(], "deviceProperties": [{"id": 0, "name": "H100"}], "traceName": )" + "\"t\\\"1\"}";
}

std::vector<std::string> queueEvents()
{
    return {
        launch("cudaLaunchKernel", 10, 1),
        launch("cudaLaunchKernel", 20, 2),
        launch("cudaMemcpyAsync", 30, 3),
        gpu("kernel", "k1", 100, 10, 1),
        gpu("kernel", "k2", 120, 10, 2),
        gpu("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 200, 10, 3,
            R"x(,"memory bandwidth (GB/s)":5.0)x"),
    };
}

// Writes in.json (document(queueEvents())) to `dir`; returns its path.
std::string writeInput(const QTemporaryDir& dir)
{
    const std::string input = dir.path().toStdString() + "/in.json";
    std::ofstream(input) << document(queueEvents());
    return input;
}

std::string readAll(const std::string& path)
{
    auto input = core::openInputStream(path, core::InflateBackend::Zlib);
    if (!input)
        qFatal("%s", input.error().describe().c_str());
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        auto n = input.value()->read(buffer, sizeof buffer);
        if (!n || n.value() == 0)
            break;
        text.append(buffer, n.value());
    }
    return text;
}

std::string rawBytes(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

bool isGzipFile(const std::string& path)
{
    const std::string b = rawBytes(path);
    return b.size() > 2 && static_cast<unsigned char>(b[0]) == 0x1f
        && static_cast<unsigned char>(b[1]) == 0x8b;
}

struct Written
{
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    std::vector<simdjson::dom::object> events;

    explicit Written(const std::string& path)
    {
        const std::string text = readAll(path);
        auto parsed = parser.parse(text);
        if (parsed.error())
            qFatal("output is not valid JSON: %s", simdjson::error_message(parsed.error()));
        doc = parsed.value();
        for (simdjson::dom::element e : doc["traceEvents"].get_array())
            events.push_back(e.get_object());
    }

    std::vector<simdjson::dom::object> counters() const
    {
        std::vector<simdjson::dom::object> out;
        for (const auto& e : events)
            if (std::string_view(e["ph"].get_string().value()) == "C")
                out.push_back(e);
        return out;
    }
};

class RenameEditor final : public core::TraceEventEditor
{
public:
    bool edit(std::uint64_t index, std::string_view, std::string& out) override
    {
        if (index != 1)
            return false;
        out = R"({"ph":"i","name":"edited","ts":1,"pid":1,"tid":1})";
        return true;
    }
};

} // namespace

class TstTraceWriters : public QObject
{
    Q_OBJECT

private slots:

    void copiesEverythingAndAppends_data()
    {
        QTest::addColumn<bool>("gzip");
        QTest::newRow("plain") << false;
        QTest::newRow("gzip") << true;
    }

    void copiesEverythingAndAppends()
    {
        QFETCH(bool, gzip);
        QTemporaryDir dir;
        const std::string input = writeInput(dir);
        const std::string before = rawBytes(input);
        core::TraceWriteRequest request;
        request.inputPath = input;
        request.outputPath = dir.path().toStdString() + (gzip ? "/out.json.gz" : "/out.json");
        request.gzip = gzip;
        request.appended = { R"({"ph":"C","name":"A","pid":0,"ts":1,"args":{"v":1}})",
            R"({"ph":"C","name":"B","pid":0,"ts":2,"args":{"v":2}})" };
        auto summary = core::writeTrace(request);
        QVERIFY2(summary, summary ? "" : summary.error().describe().c_str());
        QCOMPARE(summary.value().inputEvents, std::uint64_t(8));
        QCOMPARE(summary.value().appendedEvents, std::uint64_t(2));
        QCOMPARE(isGzipFile(request.outputPath), gzip);
        QCOMPARE(rawBytes(input), before); // input untouched
        QVERIFY(!QFile::exists(QString::fromStdString(request.outputPath + ".partial")));
        Written out(request.outputPath);
        QCOMPARE(out.events.size(), std::size_t(10));
        QCOMPARE(std::string_view(out.events[9]["name"].get_string().value()), std::string_view("B"));
        QCOMPARE(std::string_view(out.events[3]["name"].get_string().value()),
            std::string_view("cudaMemcpyAsync"));
        QCOMPARE(std::int64_t(out.doc["schemaVersion"].get_int64().value()), std::int64_t(1));
        QCOMPARE(std::string_view(out.doc["traceName"].get_string().value()), std::string_view("t\"1"));
        QCOMPARE(std::string_view(out.doc["deviceProperties"].at(0)["name"].get_string().value()),
            std::string_view("H100"));
        // Kinetoscope's own reader takes the output too.
        auto reloaded = core::loadTraceSet({ request.outputPath }, {}, nullptr, nullptr);
        QVERIFY(reloaded && reloaded.value().ranks.size() == 1);
        QCOMPARE(reloaded.value().ranks[0]->counts.events, std::uint64_t(10));
    }

    void editsEvents()
    {
        QTemporaryDir dir;
        const std::string input = writeInput(dir);
        RenameEditor editor;
        core::TraceWriteRequest request { input, dir.path().toStdString() + "/out.json", false, &editor, {} };
        auto summary = core::writeTrace(request);
        QVERIFY(summary);
        QCOMPARE(summary.value().editedEvents, std::uint64_t(1));
        Written out(request.outputPath);
        QCOMPARE(out.events.size(), std::size_t(8));
        QCOMPARE(std::string_view(out.events[1]["name"].get_string().value()), std::string_view("edited"));
        QCOMPARE(std::string_view(out.events[2]["name"].get_string().value()),
            std::string_view("cudaLaunchKernel"));
    }

    void neverOverwritesTheInput()
    {
        QTemporaryDir dir;
        const std::string input = writeInput(dir);
        const std::string before = rawBytes(input);
        core::TraceWriteRequest request;
        request.inputPath = input;
        request.outputPath = dir.path().toStdString() + "/./in.json";
        request.appended = { "{}" };
        QVERIFY(!core::writeTrace(request));
        QCOMPARE(rawBytes(input), before);
        request.outputPath = dir.path().toStdString() + "/missing-dir/out.json";
        QVERIFY(!core::writeTrace(request)); // a clear error, nothing half-written
    }

    void htaOutputNames()
    {
        QCOMPARE(core::countersTracePath("/d/x.json.gz"), std::string("/d/x_with_counters.json.gz"));
        QCOMPARE(core::countersTracePath("x.pt.trace.json"), std::string("x.pt.trace_with_counters.json"));
        QCOMPARE(core::countersTracePath("/d/a.json.b.json"),
            std::string("/d/a_with_counters.json.b_with_counters.json"));
        QCOMPARE(core::sequencesTracePath("/d/x.json.gz", "/o"), std::string("/o/overlaid_x.json.gz"));
        QVERIFY(core::isGzipPath("a.json.gz"));
        QVERIFY(!core::isGzipPath("a.json"));
    }

    // Queue length: +1 when a launch starts, -1 when its GPU work starts (§8);
    // bandwidth: the memcpy's GB/s from its start, 0 at its end (§7). Times are
    // the trace's own, keys in HTA's order.
    void counterEventsByHand_data() { tests::addModeRows(); }

    void counterEventsByHand()
    {
        QFETCH(core::AnalysisMode, mode);
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { tests::kinetoDocument(0, queueEvents()) });
        core::AnalysisOptions options;
        options.mode = mode;
        const core::FrameSet frames = tests::frames(set, mode);
        const std::vector<std::string> events = core::counterEvents(frames, options, 0);
        QCOMPARE(events.size(), std::size_t(8));
        QCOMPARE(events[0],
            std::string(R"({"pid": 0, "ts": 1000010, "args": {"Queue Length": 1}, "ph": "C", )"
                        R"("name": "Queue Length", "id": 7})"));
        std::vector<std::string> expectedTail = {
            R"({"pid": 0, "ts": 1000200, "args": {"Memcpy BW": 5.0}, "ph": "C", "name": "Memcpy HtoD"})",
            R"({"pid": 0, "ts": 1000210, "args": {"Memcpy BW": 0.0}, "ph": "C", "name": "Memcpy HtoD"})",
        };
        QCOMPARE(std::vector<std::string>(events.end() - 2, events.end()), expectedTail);

        const std::string output = dir.path().toStdString() + "/out_with_counters.json.gz";
        auto written = core::writeCountersTrace(frames, options, 0, output, true);
        QVERIFY2(written, written ? "" : written.error().describe().c_str());
        QVERIFY(isGzipFile(output));
        Written out(output);
        const auto counters = out.counters();
        QCOMPARE(counters.size(), std::size_t(8));
        std::vector<std::int64_t> queue;
        std::vector<std::int64_t> times;
        for (std::size_t i = 0; i < 6; ++i) {
            queue.push_back(counters[i]["args"]["Queue Length"].get_int64().value());
            times.push_back(counters[i]["ts"].get_int64().value());
            QCOMPARE(counters[i]["id"].get_int64().value(), std::int64_t(7));
        }
        QCOMPARE(queue, (std::vector<std::int64_t> { 1, 2, 3, 2, 1, 0 }));
        QCOMPARE(times, (std::vector<std::int64_t> { 1000010, 1000020, 1000030, 1000100, 1000120, 1000200 }));
    }

    // Default mode keeps exact ns: a launch at ...010.25 us is written with those digits.
    void nanosecondTimesKeepTheirDigits()
    {
        QTemporaryDir dir;
        const std::string launchAt =
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,)"
            R"("ts":1000010.25,"dur":5,"args":{"correlation":1}})";
        const auto set = tests::loadRanks(
            dir, { tests::kinetoDocument(0, { launchAt, gpu("kernel", "k1", 100, 10, 1) }) });
        core::AnalysisOptions options;
        const std::vector<std::string> events =
            core::counterEvents(tests::frames(set, options.mode), options, 0);
        QCOMPARE(events.size(), std::size_t(2));
        QVERIFY2(events[0].find(R"("ts": 1000010.25,)") != std::string::npos, events[0].c_str());
        QVERIFY2(events[1].find(R"("ts": 1000100.0,)") != std::string::npos, events[1].c_str());
    }

    void noCountersWithoutGpuWork()
    {
        QTemporaryDir dir;
        const auto set =
            tests::loadRanks(dir, { tests::kinetoDocument(0, { eventAtBase("cpu_op", "aten::mm", 0, 5) }) });
        core::AnalysisOptions options;
        QVERIFY(core::counterEvents(tests::frames(set, options.mode), options, 0).empty());
    }

    // A7 overlay: the top patterns' events get args.Patterns; with HTA's
    // compression other complete events lose args and names, and the profiler
    // span carries the id -> name table.
    void sequencesOverlay_data()
    {
        QTest::addColumn<bool>("compress");
        QTest::newRow("default: annotate only") << false;
        QTest::newRow("hta: compress others") << true;
    }

    void sequencesOverlay()
    {
        QFETCH(bool, compress);
        QTemporaryDir dir;
        const std::vector<std::string> events = {
            eventAtBase("cpu_op", "aten::linear", 10, 90), // traceEvents[1]
            launch("cudaLaunchKernel", 20, 1), launch("cudaLaunchKernel", 30, 2),
            launch("cudaLaunchKernel", 40, 3), gpu("kernel", "k1", 100, 5, 1), gpu("kernel", "k2", 110, 5, 2),
            gpu("kernel", "k3", 120, 5, 3),
            eventAtBase(
                "cpu_op", "aten::relu", 200, 10, R"({"External id":9})"), // traceEvents[8]: in no pattern
        };
        const std::string input = dir.path().toStdString() + "/t.json";
        std::ofstream(input) << document(events);
        auto set = core::loadTraceSet({ input }, {}, nullptr, nullptr);
        QVERIFY(set);
        const core::FrameSet frames = tests::frames(set.value(), core::AnalysisMode::Default);
        const core::KernelSequences s = core::kernelSequences(frames, 0, "aten::linear", {});
        QCOMPARE(s.patterns.size(), std::size_t(1));
        core::SequencesTraceOptions o;
        o.compressOtherEvents = compress;
        const std::string output = core::sequencesTracePath(input, dir.path().toStdString());
        QVERIFY(core::writeSequencesTrace(frames.ranks.front(), s, output, false, o));
        Written out(output);
        QCOMPARE(out.events.size(), std::size_t(10));
        for (std::size_t i = 1; i <= 7; ++i)
            QCOMPARE(out.events[i]["args"]["Patterns"]["aten::linear|k1|k2|k3"].get_int64().value(),
                std::int64_t(1));
        QCOMPARE(out.events[4]["args"]["correlation"].get_int64().value(), std::int64_t(3)); // args kept
        const std::string_view reluName = out.events[8]["name"].get_string().value();
        QCOMPARE(reluName == "aten::relu", !compress);
        QCOMPARE(out.events[8]["args"].get_object().size() == 0, compress);
        QCOMPARE(
            std::string_view(out.events[0]["name"].get_string().value()), std::string_view("process_name"));
        QVERIFY(out.events[0]["args"]["name"].error() == simdjson::SUCCESS); // metadata untouched
        const auto spanArgs = out.events[9]["args"].get_object();
        QCOMPARE(spanArgs["Op count"].error() == simdjson::SUCCESS, !compress);
        if (compress) {
            const std::string id(reluName);
            QCOMPARE(std::string_view(spanArgs[id].get_string().value()), std::string_view("aten::relu"));
        }
    }

    // HTA's arrow end times (hta-semantics §11.7): int() of the raw numbers in
    // Python's arithmetic. Integer tokens stay exact; a float token makes the sum a
    // double, rounded before truncation (the shared traces only hold integers).
    void htaFlowTimes_data()
    {
        QTest::addColumn<QString>("ts");
        QTest::addColumn<QString>("dur");
        QTest::addColumn<QString>("device");
        QTest::addColumn<bool>("atStart");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("start: int(ts)") << "1000.75"
                                        << "5"
                                        << "0" << true << qint64(1000);
        // The double nearest 1694040009779792.9 is ...793.0: Python's int() says 793.
        QTest::newRow("start: rounded to a double first") << "1694040009779792.9"
                                                          << "5"
                                                          << "" << true << qint64(1694040009779793);
        QTest::newRow("end of a CPU event: ts + dur") << "100"
                                                      << "7"
                                                      << "" << false << qint64(107);
        QTest::newRow("end of a GPU event: 1 us inside") << "100"
                                                         << "7"
                                                         << "0" << false << qint64(106);
        QTest::newRow("end of a GPU event, device -1: not moved") << "100"
                                                                  << "7"
                                                                  << "-1" << false << qint64(107);
        QTest::newRow("GPU event shorter than 1 us: its start") << "100"
                                                                << "0"
                                                                << "3" << false << qint64(100);
        QTest::newRow("fractional GPU event") << "1000.5"
                                              << "2.25"
                                              << "0" << false << qint64(1001);
        QTest::newRow("fractional, under 1 us") << "1000.5"
                                                << "0.75"
                                                << "0" << false << qint64(1000);
        QTest::newRow("sum rounded as a double") << "1694040009779792.6"
                                                 << "0.3"
                                                 << "" << false << qint64(1694040009779792);
        QTest::newRow("exponent token is a float") << "1e3"
                                                   << "2"
                                                   << "" << false << qint64(1002);
    }

    void htaFlowTimes()
    {
        QFETCH(QString, ts);
        QFETCH(QString, dur);
        QFETCH(QString, device);
        QFETCH(bool, atStart);
        QFETCH(qint64, expected);
        core::RawFlowEndpoint e;
        e.ts = ts.toStdString();
        e.dur = dur.toStdString();
        e.device = device.toStdString();
        const auto got = core::htaFlowTimestamp(e, atStart);
        QVERIFY(got.has_value());
        QCOMPARE(qint64(*got), expected);
    }

    void htaFlowTimeNeedsNumbers()
    {
        core::RawFlowEndpoint e;
        e.ts = R"("12")";
        QVERIFY(!core::htaFlowTimestamp(e, true));
        e.ts = "12";
        QVERIFY(!core::htaFlowTimestamp(e, false)); // no dur
    }

    // HTA's arrow: cat and name "critical_path", args weight (int µs, toward zero),
    // critical, type; pid and tid as the raw event has them; "bp":"e" on the finish.
    void htaFlowEventText()
    {
        core::RawFlowEndpoint e;
        e.pid = "0";
        e.tid = R"("stream 7")";
        core::CpEdge edge;
        edge.type = core::CpEdgeType::KernelLaunchDelay;
        edge.weight = 10'900; // ns
        QCOMPARE(core::htaFlowEvent(e, 123, edge, 4, true),
            std::string(R"({"ph":"s","id":4,"pid":0,"tid":"stream 7","ts":123,"cat":"critical_path",)"
                        R"("name":"critical_path","args":{"weight":10,"critical":true,)"
                        R"("type":"critical_path_kernel_launch_delay"}})"));
        edge.type = core::CpEdgeType::SyncDependency;
        edge.weight = -900;
        QCOMPARE(core::htaFlowEvent(e, 7, edge, 0, false),
            std::string(R"({"ph":"f","id":0,"pid":0,"tid":"stream 7","ts":7,"cat":"critical_path",)"
                        R"("name":"critical_path","args":{"weight":0,"critical":true,)"
                        R"("type":"critical_path_sync_dependency"},"bp":"e"})"));
        QVERIFY(core::htaDrawsEdge(core::CpEdgeType::Dependency));
        QVERIFY(!core::htaDrawsEdge(core::CpEdgeType::KernelKernelDelay));
        QVERIFY(!core::htaDrawsEdge(core::CpEdgeType::Operator));
    }
};

KS_TEST_MAIN(tst_trace_writers, TstTraceWriters)
#include "tst_trace_writers.moc"
