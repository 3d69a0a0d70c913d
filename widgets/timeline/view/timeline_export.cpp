#include "widgets/timeline/view/timeline_export.h"

#include "widgets/timeline/view/timeline_view.h"

#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

namespace ks::widgets {

bool exportTimelineImage(TimelineView& view, const QString& path)
{
    const qreal ratio = view.devicePixelRatioF();
    QImage image(view.size() * ratio, QImage::Format_RGB32);
    image.setDevicePixelRatio(ratio);
    {
        QPainter p(&image);
        view.renderTo(p, view.size());
    }
    return image.save(path, "PNG");
}

bool exportTimelineSvg(TimelineView& view, const QString& path)
{
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(view.size());
    svg.setViewBox(QRect(QPoint(0, 0), view.size()));
    svg.setTitle(QStringLiteral("Kinetoscope timeline"));
    svg.setDescription(QStringLiteral("The visible tracks and time range of a Kinetoscope timeline"));
    QPainter p;
    if (!p.begin(&svg))
        return false;
    view.renderTo(p, view.size());
    return p.end();
}

} // namespace ks::widgets
