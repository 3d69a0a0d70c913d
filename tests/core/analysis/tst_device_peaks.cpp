// The peak table (resources/peaks/device_peaks.json) parses, every row is
// usable, the real deviceProperties of the shared H100, MI300X and MI250 traces find
// their rows, and a --peaks file that is wrong says which key in one line.

#include "core/analysis/efficiency/device_peaks.h"
#include "core/analysis/efficiency/efficiency.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks::core;

class TestDevicePeaks : public QObject
{
    Q_OBJECT

private slots:

    void tableParsesAndCoversTheIssuesDevices()
    {
        const auto parsed = parseDeviceTable(builtinDeviceTableJson());
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().describe().c_str());
        const auto& table = builtinDeviceTable();
        QVERIFY(table.size() >= 20);
        for (const DevicePeaks& d : table) {
            QVERIFY2(!d.source.empty(), d.name.c_str()); // every row cites where its numbers are from
            QVERIFY2(d.memoryBandwidthGBps > 0, d.name.c_str());
        }
        for (const char* name : { "V100", "A100 SXM4 40GB", "A100 SXM4 80GB", "A100 PCIe 40GB",
                 "A100 PCIe 80GB", "NVIDIA A10", "L4", "L40S", "H100 SXM", "H100 PCIe", "H100 NVL", "H200",
                 "B200", "GB200", "MI210", "MI250X", "MI300X", "MI325X", "MI350X", "MI355X" })
            QVERIFY2(findDeviceByName(table, name), name);
        // Dense, never sparse: H100 SXM's bf16 tensor peak is 989.5, not 1979.
        QCOMPARE(findDeviceByName(table, "H100 SXM")->matrixTflops.at("bf16"), 989.5);
    }

    void realDevicePropertiesFindTheirRows()
    {
        const struct
        {
            const char* folder;
            const char* row;
        } cases[] = {
            { "h100_qwen05b", "NVIDIA H100 SXM5 80GB" }, { "mi300_qwen05b", "AMD Instinct MI300X" },
            { "amd_rocm",
                "AMD Instinct MI210 / MI250 (one GCD)" }, // "AMD Radeon Graphics", gfx90a by CU count
        };

        for (const auto& c : cases) {
            const TraceSet set = ks::tests::loadSharedTraces(QString::fromLatin1(c.folder));
            const DeviceChoice choice = chooseDevice(set, std::nullopt, std::nullopt);
            QVERIFY2(choice.peaks, choice.note.c_str());
            QCOMPARE(choice.peaks->name, std::string(c.row));
        }
    }

    void genericAmdNameFoundByArchitecture()
    {
        DeviceProperties d;
        d.name = "AMD Radeon Graphics";
        d.gcnArchName = "gfx942:sramecc+:xnack-";
        d.numSms = 304;
        d.totalGlobalMem = 205'000'000'000;
        QCOMPARE(findDevice(builtinDeviceTable(), d)->name, std::string("AMD Instinct MI300X"));
        d.totalGlobalMem = 274'000'000'000; // 256 GB: the MI325X
        QCOMPARE(findDevice(builtinDeviceTable(), d)->name, std::string("AMD Instinct MI325X"));
        // Whole words only: an A100 board name is not an A10; "A100" alone goes by memory.
        DeviceProperties a;
        a.name = "NVIDIA A100-PG509-200";
        a.totalGlobalMem = 42'000'000'000;
        QCOMPARE(findDevice(builtinDeviceTable(), a)->name, std::string("NVIDIA A100 SXM4 40GB"));
        a.totalGlobalMem = 85'000'000'000;
        QCOMPARE(findDevice(builtinDeviceTable(), a)->name, std::string("NVIDIA A100 SXM4 80GB"));
        a.name = "NVIDIA A10";
        QCOMPARE(findDevice(builtinDeviceTable(), a)->name, std::string("NVIDIA A10"));
        d.name = "Some Future GPU";
        d.gcnArchName.clear();
        QVERIFY(!findDevice(builtinDeviceTable(), d));
    }

    void unknownDeviceSaysWhich()
    {
        const TraceSet set = ks::tests::loadSharedTraces(QStringLiteral("h100_qwen05b"));
        const DeviceChoice choice = chooseDevice(set, std::string("Z9000"), std::nullopt);
        QVERIFY(!choice.peaks);
        QVERIFY(choice.note.find("Z9000") != std::string::npos);
    }

    void peaksFileErrorsNameTheKey()
    {
        const auto ok = parsePeaksFile(
            R"({"name": "X", "memory_bandwidth_gbps": 5300, "matrix_tflops": {"bf16": 708}, "vector_tflops": {"fp32": 81}})",
            "p.json");
        QVERIFY(ok.ok());
        QCOMPARE(ok.value().matrixTflops.at("bf16"), 708.0);

        const struct
        {
            const char* json;
            const char* key;
        } bad[] = {
            { R"({"name": "X", "matrix_tflops": {"bf16": 708}})", "\"memory_bandwidth_gbps\"" },
            { R"({"name": "X", "memory_bandwidth_gbps": 1, "matrix_tflops": {"bf16": "fast"}})", "\"bf16\"" },
            { R"({"name": "X", "memory_bandwidth_gbps": 1, "matrix_tflops": [708]})", "\"matrix_tflops\"" },
            { R"({"memory_bandwidth_gbps": 1})", "\"name\"" },
            { "not json", "not JSON" },
        };

        for (const auto& b : bad) {
            const auto r = parsePeaksFile(b.json, "p.json");
            QVERIFY(!r.ok());
            const std::string line = r.error().describe();
            QVERIFY2(line.find(b.key) != std::string::npos && line.find("p.json") == 0, line.c_str());
            QVERIFY(line.find('\n') == std::string::npos);
        }
    }
};

KS_TEST_MAIN(tst_device_peaks, TestDevicePeaks)
#include "tst_device_peaks.moc"
