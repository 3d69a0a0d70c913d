#include "app/cli/inputs/device_peaks_cli.h"

#include <fstream>
#include <ostream>
#include <sstream>

namespace ks::cli {

std::optional<core::RooflineDevice> deviceArguments(const CliArgs& args, std::ostream& err)
{
    core::RooflineDevice device;
    device.name = args.value(kDeviceOption);
    const std::optional<std::string> path = args.value(kPeaksOption);
    if (!path)
        return device;
    std::ifstream file(*path, std::ios::binary);
    if (!file) {
        err << *path << ": cannot read the --peaks file\n";
        return std::nullopt;
    }
    std::stringstream text;
    text << file.rdbuf();
    auto peaks = core::parsePeaksFile(text.str(), *path);
    if (!peaks) {
        err << peaks.error().describe() << '\n';
        return std::nullopt;
    }
    device.peaksFile = std::move(peaks).value();
    return device;
}

} // namespace ks::cli
