#include "core/analysis/efficiency/device_peaks.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <functional>

namespace ks::core {

namespace {

    using simdjson::dom::element;
    using simdjson::dom::object;

    std::string lower(std::string_view text)
    {
        std::string out(text);
        std::transform(out.begin(), out.end(), out.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return out;
    }

    Error peaksError(const std::string& path, const std::string& what)
    {
        return Error { ErrorCode::InvalidArgument, what, path, std::nullopt };
    }

    std::optional<double> number(element e)
    {
        double d = 0;
        if (!e.get_double().get(d))
            return d;
        std::int64_t i = 0;
        if (!e.get_int64().get(i))
            return double(i);
        return std::nullopt;
    }

    // "matrix_tflops": {"bf16": 708, ...}; problem names the key on failure.
    bool readRates(
        object o, std::string_view key, std::map<std::string, double, std::less<>>& out, std::string& problem)
    {
        element value;
        if (o[key].get(value))
            return true; // optional
        object rates;
        if (value.get_object().get(rates)) {
            problem = "\"" + std::string(key) + "\" must be an object of precision: TFLOP/s";
            return false;
        }
        for (auto [precision, rate] : rates) {
            const auto v = number(rate);
            if (!v || *v <= 0) {
                problem = "\"" + std::string(key) + "\".\"" + std::string(precision)
                    + "\" must be a positive number";
                return false;
            }
            out.emplace(lower(precision), *v);
        }
        return true;
    }

    std::optional<DevicePeaks> readDevice(object o, std::string& problem)
    {
        DevicePeaks d;
        std::string_view text;
        if (o["name"].get_string().get(text) || text.empty()) {
            problem = "\"name\" must be a non-empty string";
            return std::nullopt;
        }
        d.name = std::string(text);
        element bw;
        const auto bandwidth = o["memory_bandwidth_gbps"].get(bw) ? std::nullopt : number(bw);
        if (!bandwidth || *bandwidth <= 0) {
            problem = "\"memory_bandwidth_gbps\" must be a positive number";
            return std::nullopt;
        }
        d.memoryBandwidthGBps = *bandwidth;
        if (!readRates(o, "matrix_tflops", d.matrixTflops, problem)
            || !readRates(o, "vector_tflops", d.vectorTflops, problem))
            return std::nullopt;
        if (d.matrixTflops.empty() && d.vectorTflops.empty()) {
            problem = "\"matrix_tflops\" or \"vector_tflops\" must give at least one precision";
            return std::nullopt;
        }
        if (!o["source"].get_string().get(text))
            d.source = std::string(text);
        object match;
        if (!o["match"].get_object().get(match)) {
            simdjson::dom::array names;
            if (!match["names"].get_array().get(names))
                for (element n : names)
                    if (!n.get_string().get(text))
                        d.match.names.emplace_back(text);
            if (!match["gcn_arch"].get_string().get(text))
                d.match.gcnArch = std::string(text);
            if (!match["compute_capability"].get_string().get(text))
                d.match.computeCapability = std::string(text);
            std::int64_t cus = 0;
            if (!match["compute_units"].get_int64().get(cus))
                d.match.computeUnits = cus;
            element mem;
            if (!match["memory_gb_at_least"].get(mem))
                d.match.memoryGbAtLeast = number(mem).value_or(0);
        }
        return d;
    }

    bool memoryFits(const DevicePeaks& row, const DeviceProperties& device)
    {
        return row.match.memoryGbAtLeast <= 0
            || double(device.totalGlobalMem) >= row.match.memoryGbAtLeast * 1e9;
    }

    // Among rows that pass `fits`, the one whose memory bound is highest: MI325X before MI300X.
    const DevicePeaks* bestByMemory(const std::vector<DevicePeaks>& table, const DeviceProperties& device,
        const std::function<bool(const DevicePeaks&)>& fits)
    {
        const DevicePeaks* best = nullptr;
        for (const DevicePeaks& row : table)
            if (fits(row) && memoryFits(row, device)
                && (!best || row.match.memoryGbAtLeast > best->match.memoryGbAtLeast))
                best = &row;
        return best;
    }

} // namespace

std::optional<PeakChoice> peakFor(const DevicePeaks& device, ComputeUnit unit, std::string_view precision)
{
    if (precision.empty())
        return std::nullopt;
    const auto& rates = unit == ComputeUnit::Matrix ? device.matrixTflops : device.vectorTflops;
    const std::string unitName = unit == ComputeUnit::Matrix ? "matrix_" : "vector_";
    if (const auto it = rates.find(precision); it != rates.end())
        return PeakChoice { unitName + std::string(precision), it->second };
    const bool halfVector = unit == ComputeUnit::Vector && (precision == "bf16" || precision == "fp16");
    const bool fp32Matrix = unit == ComputeUnit::Matrix && precision == "fp32";
    if (halfVector || fp32Matrix)
        if (const auto it = device.vectorTflops.find("fp32"); it != device.vectorTflops.end())
            return PeakChoice { "vector_fp32", it->second };
    return std::nullopt;
}

Result<std::vector<DevicePeaks>> parseDeviceTable(std::string_view json)
{
    simdjson::dom::parser parser;
    const simdjson::padded_string padded(json);
    simdjson::dom::array devices;
    if (parser.parse(padded)["devices"].get_array().get(devices))
        return peaksError("device_peaks.json", "\"devices\" must be a list");
    std::vector<DevicePeaks> table;
    for (element e : devices) {
        object o;
        std::string problem = "a device must be an object";
        std::optional<DevicePeaks> d;
        if (!e.get_object().get(o))
            d = readDevice(o, problem);
        if (!d)
            return peaksError(
                "device_peaks.json", "device #" + std::to_string(table.size() + 1) + ": " + problem);
        table.push_back(std::move(*d));
    }
    return table;
}

const std::vector<DevicePeaks>& builtinDeviceTable()
{
    // Parsed once; the text is a compiled-in constant, checked by tst_device_peaks.
    static const std::vector<DevicePeaks> table = [] {
        auto parsed = parseDeviceTable(builtinDeviceTableJson());
        return parsed ? std::move(parsed).value() : std::vector<DevicePeaks> {};
    }();
    return table;
}

Result<DevicePeaks> parsePeaksFile(std::string_view json, const std::string& path)
{
    simdjson::dom::parser parser;
    const simdjson::padded_string padded(json);
    element root;
    if (parser.parse(padded).get(root))
        return peaksError(path,
            "not JSON: expected {\"name\": ..., \"memory_bandwidth_gbps\": ..., "
            "\"matrix_tflops\": {...}, \"vector_tflops\": {...}}");
    object o;
    if (root.get_object().get(o))
        return peaksError(path,
            "must be a JSON object with \"name\", \"memory_bandwidth_gbps\", "
            "\"matrix_tflops\" and \"vector_tflops\"");
    std::string problem;
    auto d = readDevice(o, problem);
    if (!d)
        return peaksError(path, problem);
    return std::move(*d);
}

const DevicePeaks* findDevice(const std::vector<DevicePeaks>& table, const DeviceProperties& device)
{
    const std::string name = lower(device.name);
    // The longest name found as a whole word ("A10" is not in "A100-SXM4"); among equally
    // long ones, the row whose memory bound the device meets and is highest (A100 80GB
    // before 40GB when the name says only "A100").
    const auto wholeWordAt = [&name](const std::string& needle) {
        for (std::size_t at = name.find(needle); at != std::string::npos; at = name.find(needle, at + 1)) {
            const std::size_t end = at + needle.size();
            if (end == name.size() || !std::isalnum(static_cast<unsigned char>(name[end])))
                return true;
        }
        return false;
    };
    const DevicePeaks* best = nullptr;
    std::size_t bestLength = 0;
    for (const DevicePeaks& row : table)
        for (const std::string& n : row.match.names) {
            if (n.size() < bestLength || !memoryFits(row, device) || !wholeWordAt(lower(n)))
                continue;
            if (n.size() > bestLength || row.match.memoryGbAtLeast > best->match.memoryGbAtLeast) {
                best = &row;
                bestLength = n.size();
            }
        }
    if (best)
        return best;
    // gcnArchName may carry features after a colon: "gfx942:sramecc+:xnack-".
    const std::string arch = lower(device.gcnArchName.substr(0, device.gcnArchName.find(':')));
    const auto unitsFit = [&device](const DevicePeaks& row) {
        return row.match.computeUnits == 0 || row.match.computeUnits == device.numSms;
    };
    if (!arch.empty())
        if (const auto* row = bestByMemory(
                table, device, [&](const DevicePeaks& r) { return r.match.gcnArch == arch && unitsFit(r); }))
            return row;
    // No arch name either (older ROCm): AMD's generic name with its compute capability and CU count.
    if (name.find("amd") == std::string::npos && name.find("radeon") == std::string::npos)
        return nullptr;
    const std::string capability =
        std::to_string(device.computeMajor) + "." + std::to_string(device.computeMinor);
    return bestByMemory(table, device, [&](const DevicePeaks& r) {
        return !r.match.computeCapability.empty() && r.match.computeCapability == capability
            && r.match.computeUnits == device.numSms;
    });
}

const DevicePeaks* findDeviceByName(const std::vector<DevicePeaks>& table, std::string_view name)
{
    const std::string wanted = lower(name);
    for (const DevicePeaks& row : table)
        if (lower(row.name) == wanted)
            return &row;
    for (const DevicePeaks& row : table)
        for (const std::string& n : row.match.names)
            if (lower(n) == wanted)
                return &row;
    for (const DevicePeaks& row : table)
        if (lower(row.name).find(wanted) != std::string::npos)
            return &row;
    return nullptr;
}

} // namespace ks::core
