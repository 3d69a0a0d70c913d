#pragma once

#include "core/analysis/efficiency/perf_model.h"
#include "core/common/result.h"
#include "core/model/rank_metadata.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// How a trace's deviceProperties find a row of the peak table.
struct DeviceMatch
{
    std::vector<std::string> names; // case-insensitive substrings of the device's name
    std::string gcnArch; // "gfx942": AMD GPUs often report the generic "AMD Radeon Graphics"
    std::int64_t computeUnits = 0; // numSms (CUs on AMD); 0: any
    std::string computeCapability; // "9.4": with computeUnits when gcnArchName is absent too
    double memoryGbAtLeast = 0; // tells MI325X (256 GB) from MI300X (192 GB)

    bool operator==(const DeviceMatch&) const = default;
};

// Peak rates of one device: dense TFLOP/s per precision on the matrix and the vector
// units, and memory bandwidth. The --peaks file has this form.
struct DevicePeaks
{
    std::string name;
    double memoryBandwidthGBps = 0;
    std::map<std::string, double, std::less<>> matrixTflops; // "bf16" -> 989.5
    std::map<std::string, double, std::less<>> vectorTflops;
    std::string source;
    DeviceMatch match;

    bool operator==(const DevicePeaks&) const = default;
};

// Which peak an op is held against: "matrix_bf16" and its TFLOP/s.
struct PeakChoice
{
    std::string label;
    double tflops = 0;
};

// The peak for an op's unit and precision. A missing vector fp16/bf16 peak falls back
// to vector fp32 (PyTorch's elementwise kernels compute half types in fp32), a missing
// matrix fp32 peak to vector fp32 (fp32 GEMMs run on the vector units unless TF32 is
// on); the label says which was used. nullopt when the device has neither.
std::optional<PeakChoice> peakFor(const DevicePeaks& device, ComputeUnit unit, std::string_view precision);

// The table compiled in from resources/peaks/device_peaks.json.
std::string_view builtinDeviceTableJson();
Result<std::vector<DevicePeaks>> parseDeviceTable(std::string_view json);
const std::vector<DevicePeaks>& builtinDeviceTable();

// A --peaks file: {"name", "memory_bandwidth_gbps", "matrix_tflops", "vector_tflops"}.
// The error is one line naming the file and the key that is wrong.
Result<DevicePeaks> parsePeaksFile(std::string_view json, const std::string& path);

// The table's row for a trace's device: by name (the longest matching substring), then
// by gcnArchName and CU count, then by compute capability and CU count.
const DevicePeaks* findDevice(const std::vector<DevicePeaks>& table, const DeviceProperties& device);
// The row a user names with --device: its name or one of its match names, any case.
const DevicePeaks* findDeviceByName(const std::vector<DevicePeaks>& table, std::string_view name);

} // namespace ks::core
