#pragma once

#include "core/summary/job_overview.h"

#include <QColor>
#include <QRgb>

#include <algorithm>
#include <array>
#include <cstddef>

namespace ks::widgets {

// The colour of one strip pixel: the blend of the kinds of GPU work in it,
// each weighted by its share of the pixel's time, the rest idle. A blend
// rather than the dominant kind, so that a rank that computes twice as long
// and waits less than its neighbours differs from them visibly even where
// both are mostly computing. Shares above 1 in total (overlapping streams)
// are scaled down to 1.
struct StripPalette
{
    std::array<QRgb, 4> kinds; // computation, communication, memory, other
    QRgb idle;

    // The timeline's kind colours; idle near white so busy work stands out.
    static StripPalette standard();
};

// stripColor with the palette's channels converted to float once: the
// strips colour a million pixels per new zoom. Same arithmetic in the same
// order as stripColor, so the same colours.
class StripMixer
{
public:
    explicit StripMixer(const StripPalette& palette)
    {
        m_idle = channels(palette.idle);
        for (std::size_t k = 0; k < m_kinds.size(); ++k)
            m_kinds[k] = channels(palette.kinds[k]);
    }

    QRgb operator()(const core::KindShares& shares) const
    {
        float total = 0;
        for (const float s : shares)
            total += s;
        const float scale = total > 1.0f ? 1.0f / total : 1.0f;
        const float idle = 1.0f - std::min(total, 1.0f);
        std::array<float, 3> rgb { m_idle[0] * idle, m_idle[1] * idle, m_idle[2] * idle };
        for (std::size_t k = 0; k < shares.size(); ++k) {
            const float w = shares[k] * scale;
            for (std::size_t c = 0; c < rgb.size(); ++c)
                rgb[c] += m_kinds[k][c] * w;
        }
        auto channel = [](float v) { return std::clamp(static_cast<int>(v + 0.5f), 0, 255); };
        return qRgb(channel(rgb[0]), channel(rgb[1]), channel(rgb[2]));
    }

private:
    static std::array<float, 3> channels(QRgb c)
    {
        return { static_cast<float>(qRed(c)), static_cast<float>(qGreen(c)), static_cast<float>(qBlue(c)) };
    }

    std::array<float, 3> m_idle {};
    std::array<std::array<float, 3>, 4> m_kinds {};
};

inline QRgb stripColor(const StripPalette& palette, const core::KindShares& shares)
{
    return StripMixer(palette)(shares);
}

// Fraction of the time busy with any GPU work, capped at 1.
double busyFraction(const core::KindShares& shares);

} // namespace ks::widgets
