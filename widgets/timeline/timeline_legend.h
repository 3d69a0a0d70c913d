#pragma once

#include "widgets/timeline/timeline_palette.h"

#include <QWidget>

namespace ks::widgets {

// T10: the colour legend shown in the timeline's toolbar: one chip per kind of
// work in kernel-type mode, a note in name mode.
class TimelineLegend : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineLegend(QWidget* parent = nullptr);

    void setColorMode(ColorMode mode);
    // Bit k set: SliceKind k is in the data (only those get a chip).
    void setKinds(std::uint32_t mask);
    void setTimelinePalette(const TimelinePalette& palette);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<SliceKind> kinds() const;

    ColorMode m_mode = ColorMode::KernelType;
    std::uint32_t m_mask = ~0u;
    TimelinePalette m_palette;
};

} // namespace ks::widgets
