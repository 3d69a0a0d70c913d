#include "core/analysis/memory/memory_device.h"

namespace ks::core {

std::optional<std::string> memoryDeviceName(MemoryDevice device, bool tbCompat)
{
    if (device.type == kDeviceTypeCpu)
        return std::string("CPU");
    if (device.type == kDeviceTypeCuda || (!tbCompat && device.type == kDeviceTypeHip))
        return "GPU" + std::to_string(device.id);
    if (tbCompat)
        return std::nullopt;
    return "device type " + std::to_string(device.type) + " id " + std::to_string(device.id);
}

} // namespace ks::core
