#include "widgets/job/strip_raster.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace ks::widgets {

namespace {

    // Rows per parallel task: enough to amortise a task, few enough that two
    // to sixteen cores all get work on a thousand ranks.
    constexpr std::size_t kRowsPerTask = 32;

    // The bins a column over [lo, hi) touches, clipped to the profile.
    std::pair<std::size_t, std::size_t> binRange(double lo, double hi, std::size_t bins)
    {
        const auto begin = static_cast<std::size_t>(std::max(0.0, std::floor(lo)));
        const auto end = std::min(bins, static_cast<std::size_t>(std::max(0.0, std::ceil(hi))));
        return { begin, end };
    }

    // Bin b's share of the column [lo, hi): the weight averageShares gives it.
    float binWeight(std::size_t b, double lo, double hi)
    {
        const double from = std::max(lo, static_cast<double>(b));
        const double to = std::min(hi, static_cast<double>(b + 1));
        return static_cast<float>((to - from) / (hi - lo));
    }

    // Runs body(first, last) over [0, n) in blocks of kRowsPerTask.
    void forRowBlocks(std::size_t n, const core::ParallelFor& parallelFor,
        const std::function<void(std::size_t, std::size_t)>& body)
    {
        const std::size_t tasks = (n + kRowsPerTask - 1) / kRowsPerTask;
        parallelFor(
            tasks, [&](std::size_t t) { body(t * kRowsPerTask, std::min(n, (t + 1) * kRowsPerTask)); });
    }

} // namespace

ColumnWeights columnWeights(double firstBin, double lastBin, int columns, std::size_t bins)
{
    ColumnWeights out;
    columns = std::max(columns, 0);
    out.offsets.reserve(static_cast<std::size_t>(columns) + 1);
    out.offsets.push_back(0);
    const double span = lastBin - firstBin;
    // Edges computed as the straightforward path computes them, so a column's
    // bins and weights are bit for bit the same.
    auto edge = [&](int x) {
        return firstBin + span * static_cast<double>(x) / static_cast<double>(columns);
    };
    double lo = edge(0);
    for (int x = 0; x < columns; ++x) {
        const double hi = edge(x + 1);
        if (hi > lo) {
            const auto [begin, end] = binRange(lo, hi, bins);
            for (std::size_t b = begin; b < end; ++b) {
                out.bins.push_back(static_cast<std::uint32_t>(b));
                out.weights.push_back(binWeight(b, lo, hi));
            }
        }
        out.offsets.push_back(static_cast<std::uint32_t>(out.bins.size()));
        lo = hi;
    }
    return out;
}

core::KindShares averageShares(std::span<const core::KindShares> row, double firstBin, double lastBin)
{
    core::KindShares out {};
    if (row.empty() || lastBin <= firstBin)
        return out;
    const auto [begin, end] = binRange(firstBin, lastBin, row.size());
    for (std::size_t b = begin; b < end; ++b) {
        const float weight = binWeight(b, firstBin, lastBin);
        for (std::size_t k = 0; k < out.size(); ++k)
            out[k] += row[b][k] * weight;
    }
    return out;
}

void rasterRow(const StripPalette& palette, const ColumnWeights& columns,
    std::span<const core::KindShares> row, QRgb* line)
{
    const int n = columns.columns();
    const StripMixer mix(palette);
    if (row.empty()) {
        std::fill(line, line + n, mix(core::KindShares {}));
        return;
    }
    const std::uint32_t* bins = columns.bins.data();
    const float* weights = columns.weights.data();
    for (int x = 0; x < n; ++x) {
        core::KindShares shares {};
        const std::uint32_t end = columns.offsets[static_cast<std::size_t>(x) + 1];
        for (std::uint32_t i = columns.offsets[static_cast<std::size_t>(x)]; i < end; ++i) {
            const core::KindShares& bin = row[bins[i]];
            for (std::size_t k = 0; k < shares.size(); ++k)
                shares[k] += bin[k] * weights[i];
        }
        line[x] = mix(shares);
    }
}

void rasterStrips(const StripPalette& palette, const ColumnWeights& columns,
    const core::JobProfiles& profiles, const std::vector<bool>& failed, QRgb failedColor, QImage& image,
    const core::ParallelFor& parallelFor)
{
    const auto ranks = static_cast<std::size_t>(image.height());
    const int width = std::min(image.width(), columns.columns());
    forRowBlocks(ranks, parallelFor, [&](std::size_t first, std::size_t last) {
        for (std::size_t r = first; r < last; ++r) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(static_cast<int>(r)));
            if (r < failed.size() && failed[r])
                std::fill(line, line + width, failedColor);
            else if (profiles.bins == 0 || (r + 1) * profiles.bins > profiles.shares.size())
                std::fill(line, line + width, stripColor(palette, core::KindShares {}));
            else
                rasterRow(palette, columns, profiles.row(r), line);
        }
    });
}

QImage fitStripRows(const QImage& image, int rows, const core::ParallelFor& parallelFor)
{
    const int n = image.height();
    const int columns = image.width();
    const auto width = static_cast<std::size_t>(columns);
    QImage out(columns, rows, QImage::Format_RGB32);
    if (n == 0 || rows <= 0)
        return out;
    // Distances to the column mean scaled by n, in integers: |c·n − Σc| is
    // n·|c − mean| exactly, without a float conversion per channel and pixel.
    std::vector<std::int64_t> sum(width * 3, 0);
    for (int y = 0; y < n; ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (std::size_t x = 0; x < width; ++x) {
            sum[x * 3] += qRed(line[x]);
            sum[x * 3 + 1] += qGreen(line[x]);
            sum[x * 3 + 2] += qBlue(line[x]);
        }
    }
    const std::int64_t count = n;
    forRowBlocks(static_cast<std::size_t>(rows), parallelFor, [&](std::size_t firstRow, std::size_t lastRow) {
        std::vector<std::int64_t> farthest(width);
        for (std::size_t row = firstRow; row < lastRow; ++row) {
            const int first = static_cast<int>(static_cast<qint64>(row) * n / rows);
            const int last = std::max(first + 1, static_cast<int>(static_cast<qint64>(row + 1) * n / rows));
            auto* dst = reinterpret_cast<QRgb*>(out.scanLine(static_cast<int>(row)));
            std::fill(farthest.begin(), farthest.end(), -1);
            // Group rows one after another, each scanned left to right: the
            // image is read in memory order.
            for (int y = first; y < last && y < n; ++y) {
                const auto* src = reinterpret_cast<const QRgb*>(image.constScanLine(y));
                for (std::size_t x = 0; x < width; ++x) {
                    const QRgb c = src[x];
                    const std::int64_t d = std::abs(qRed(c) * count - sum[x * 3])
                        + std::abs(qGreen(c) * count - sum[x * 3 + 1])
                        + std::abs(qBlue(c) * count - sum[x * 3 + 2]);
                    if (d > farthest[x]) {
                        farthest[x] = d;
                        dst[x] = c;
                    }
                }
            }
        }
    });
    return out;
}

} // namespace ks::widgets
