#pragma once

// Which memory a [memory] record counts in: the profiler's (Device Type, Device
// Id). The names are the TensorBoard plugin's ("CPU", "GPU<id>"), which the
// CLI's JSON and the references share.

#include <cstdint>
#include <optional>
#include <string>

namespace ks::core {

// c10::DeviceType values the profiler writes.
inline constexpr std::int32_t kDeviceTypeCpu = 0;
inline constexpr std::int32_t kDeviceTypeCuda = 1;
inline constexpr std::int32_t kDeviceTypeHip = 6;

struct MemoryDevice
{
    std::int32_t type = -1;
    std::int32_t id = -1;

    auto operator<=>(const MemoryDevice&) const = default;
};

// "CPU", "GPU0" (CUDA, and HIP: ROCm's allocator writes Device Type 6 for the
// same memory), "device type 13 id 0" for any other. With `tbCompat`, the
// plugin's names: HIP and other types have none (nullopt), as the plugin's
// DeviceType enum knows only CPU and CUDA (spec TB.1).
std::optional<std::string> memoryDeviceName(MemoryDevice device, bool tbCompat);

} // namespace ks::core
