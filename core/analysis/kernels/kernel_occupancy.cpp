#include "core/analysis/kernels/kernel_occupancy.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ks::core {

namespace {

    // The number after `"key":` in an args object, if any. A plain search is
    // enough: these keys hold numbers and appear once in Kineto's kernel args.
    std::optional<double> numberArg(std::string_view text, std::string_view key)
    {
        const std::string quoted = "\"" + std::string(key) + "\"";
        const std::size_t at = text.find(quoted);
        if (at == std::string_view::npos)
            return std::nullopt;
        const std::size_t colon = text.find(':', at + quoted.size());
        if (colon == std::string_view::npos)
            return std::nullopt;
        const std::string tail(text.substr(colon + 1, 40));
        char* end = nullptr;
        const double value = std::strtod(tail.c_str(), &end);
        return end == tail.c_str() ? std::nullopt : std::optional<double>(value);
    }

    // `"grid": [a, b, c]` as written without spaces, "" when absent.
    std::string listArg(std::string_view text, std::string_view key)
    {
        const std::string quoted = "\"" + std::string(key) + "\"";
        const std::size_t at = text.find(quoted);
        const std::size_t open = at == std::string_view::npos ? at : text.find('[', at);
        const std::size_t close = open == std::string_view::npos ? open : text.find(']', open);
        if (close == std::string_view::npos)
            return {};
        std::string list;
        for (const char ch : text.substr(open, close - open + 1))
            if (ch != ' ')
                list += ch;
        return list;
    }

} // namespace

std::optional<double> KernelOccupancy::smEfficiency() const
{
    if (!blocksPerSm || !(*blocksPerSm > 0))
        return std::nullopt;
    return std::min(*blocksPerSm, 1.0);
}

KernelOccupancy parseKernelOccupancy(std::string_view argsText)
{
    KernelOccupancy k;
    k.blocksPerSm = numberArg(argsText, "blocks per SM");
    k.warpsPerSm = numberArg(argsText, "warps per SM");
    k.occupancyPct = numberArg(argsText, "est. achieved occupancy %");
    if (k.occupancyPct && !(*k.occupancyPct >= 0)) // the plugin keeps occupancy >= 0 only
        k.occupancyPct.reset();
    k.grid = listArg(argsText, "grid");
    k.block = listArg(argsText, "block");
    return k;
}

namespace {

    std::optional<double> present(double value)
    {
        return std::isnan(value) ? std::nullopt : std::optional<double>(value);
    }

    std::string dimsText(const std::array<std::int32_t, 3>& dims)
    {
        if (dims[0] == 0)
            return {};
        return "[" + std::to_string(dims[0]) + "," + std::to_string(dims[1]) + "," + std::to_string(dims[2])
            + "]";
    }

} // namespace

Result<std::vector<KernelOccupancy>> readKernelOccupancy(
    const RankTrace& trace, std::vector<std::uint32_t> slices)
{
    std::erase_if(slices, [&trace](std::uint32_t s) { return s >= trace.slices.size(); });
    std::sort(slices.begin(), slices.end(), [&trace](std::uint32_t a, std::uint32_t b) {
        return trace.slices.eventIndex[a] < trace.slices.eventIndex[b]; // file order
    });
    std::vector<KernelOccupancy> out;
    const KernelLaunchArgs& x = trace.launch;
    for (const std::uint32_t slice : slices) {
        const std::uint32_t row = trace.launchRow(slice);
        if (row == kNoRow)
            continue;
        KernelOccupancy k;
        k.blocksPerSm = present(x.blocksPerSm[row]);
        k.warpsPerSm = present(x.warpsPerSm[row]);
        k.occupancyPct = present(x.occupancyPct[row]);
        if (k.occupancyPct && !(*k.occupancyPct >= 0)) // the plugin keeps occupancy >= 0 only
            k.occupancyPct.reset();
        if (!k.any())
            continue;
        k.grid = dimsText(x.grid[row]);
        k.block = dimsText(x.block[row]);
        k.slice = slice;
        out.push_back(std::move(k));
    }
    return out;
}

bool isKernelCategory(std::string_view category)
{
    return category == "kernel" || category == "Kernel";
}

void OccupancyMean::add(const KernelOccupancy& k, double durationNs)
{
    if (const auto efficiency = k.smEfficiency()) {
        m_efficiency += *efficiency * durationNs;
        m_efficiencyNs += durationNs;
    }
    if (k.occupancyPct) {
        m_occupancy += *k.occupancyPct * durationNs;
        m_occupancyNs += durationNs;
    }
}

void OccupancyMean::add(const OccupancyMean& other)
{
    m_efficiency += other.m_efficiency;
    m_efficiencyNs += other.m_efficiencyNs;
    m_occupancy += other.m_occupancy;
    m_occupancyNs += other.m_occupancyNs;
}

std::optional<double> OccupancyMean::smEfficiencyPct() const
{
    if (!(m_efficiencyNs > 0))
        return std::nullopt;
    return 100.0 * m_efficiency / m_efficiencyNs;
}

std::optional<double> OccupancyMean::occupancyPct() const
{
    if (!(m_occupancyNs > 0))
        return std::nullopt;
    return m_occupancy / m_occupancyNs;
}

} // namespace ks::core
