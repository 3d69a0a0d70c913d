#pragma once

#include "core/common/parallel_for.h"
#include "core/summary/job_overview.h"
#include "widgets/job/strip_colors.h"

#include <QImage>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ks::widgets {

// Which profile bins each pixel column of the strips averages, and with what
// weight: the same for every rank, so it is computed once per zoom and a
// pixel then costs the two or three bins under it, not a search.
struct ColumnWeights
{
    // Column x reads bins[offsets[x]] .. bins[offsets[x + 1] - 1] with the
    // matching weights (each bin's overlap with the column over the column's width).
    std::vector<std::uint32_t> offsets;
    std::vector<std::uint32_t> bins;
    std::vector<float> weights;

    int columns() const { return offsets.empty() ? 0 : static_cast<int>(offsets.size()) - 1; }
};

// Columns spread evenly over the fractional bins [firstBin, lastBin) of a
// profile of `bins` bins.
ColumnWeights columnWeights(double firstBin, double lastBin, int columns, std::size_t bins);

// The straightforward computation, one pixel at a time: the shares of one
// profile row averaged over the fractional bins [firstBin, lastBin). Hover
// reads it; tests hold the fast path to it.
core::KindShares averageShares(std::span<const core::KindShares> row, double firstBin, double lastBin);

// One rank's strip: line[x] = stripColor of column x's weighted shares.
// Sums in the order averageShares does, so the colours are the same.
void rasterRow(const StripPalette& palette, const ColumnWeights& columns,
    std::span<const core::KindShares> row, QRgb* line);

// Every rank of `profiles` into `image` (one row per rank, columns.columns()
// wide, Format_RGB32), rows in parallel; `failed[r]` rows are drawn in
// `failedColor`.
void rasterStrips(const StripPalette& palette, const ColumnWeights& columns,
    const core::JobProfiles& profiles, const std::vector<bool>& failed, QRgb failedColor, QImage& image,
    const core::ParallelFor& parallelFor);

// `image` (one row per rank) fitted to `rows` pixel rows when there are more
// ranks than rows: each pixel shows the rank of its group whose colour is
// farthest from the column's mean over all ranks (the first such rank on a tie).
// Averaging (or sampling) would thin a lone straggler to a faint tint or drop
// it; this keeps it at full strength, which is what the overview is for.
QImage fitStripRows(const QImage& image, int rows, const core::ParallelFor& parallelFor);

} // namespace ks::widgets
