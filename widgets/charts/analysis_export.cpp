#include "widgets/charts/analysis_export.h"

#include "core/report/table_text.h"

#include <QFile>
#include <QSvgGenerator>

namespace ks::widgets {

ChartFormat chartFormatOf(const QString& path)
{
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive))
        return ChartFormat::Svg;
    if (path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
        return ChartFormat::Pdf;
    return ChartFormat::Png;
}

namespace {

    bool saveSvg(AnalysisChart& chart, const QString& path, QSize size)
    {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(chart.windowTitle());
        QCPPainter painter;
        if (!painter.begin(&generator))
            return false;
        chart.toPainter(&painter, size.width(), size.height());
        return painter.end();
    }

} // namespace

bool saveChart(AnalysisChart& chart, const QString& path, ChartFormat format, QSize size, double scale)
{
    if (size.isEmpty())
        size = chart.size();
    switch (format) {
    case ChartFormat::Svg:
        return saveSvg(chart, path, size);
    case ChartFormat::Pdf:
        return chart.savePdf(path, size.width(), size.height());
    case ChartFormat::Png:
        break;
    }
    return chart.savePng(path, size.width(), size.height(), scale);
}

bool saveTableCsv(const core::Table& table, const QString& path)
{
    QFile file(path);
    const std::string csv = core::tableAsCsv(table);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && file.write(csv.data(), static_cast<qint64>(csv.size())) == static_cast<qint64>(csv.size());
}

} // namespace ks::widgets
