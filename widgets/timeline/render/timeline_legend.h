#pragma once

#include "widgets/timeline/render/timeline_palette.h"

#include <QWidget>

namespace ks::widgets {

// T10: the colour legend under the timeline: one chip per kind of work in
// kernel-type mode, a note in name mode, path / off path chips and the state
// of the computation in critical path mode.
class TimelineLegend : public QWidget
{
    Q_OBJECT

public:
    struct Entry
    {
        QColor color;
        QString text;
    };

    explicit TimelineLegend(QWidget* parent = nullptr);

    void setColorMode(ColorMode mode);
    // Bit k set: SliceKind k is in the data (only those get a chip).
    void setKinds(std::uint32_t mask);
    // Text after the chips (critical path: "computing…", path lengths, problems).
    void setNote(const QString& note);

    QString note() const { return m_note; }

    // What the legend shows now, chips in order (tests read it).
    std::vector<Entry> entries() const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    ColorMode m_mode = ColorMode::KernelType;
    std::uint32_t m_mask = ~0u;
    QString m_note;
    TimelinePalette m_palette;
};

} // namespace ks::widgets
