// Job mode's fast strip drawing: the
// precomputed column weights and the row rasteriser draw exactly the colours
// of the straightforward computation (stripColor of averageShares for each
// pixel column), on the profiles of a summarised synthetic job and of a real
// two-rank trace, at several zooms, serially and on the workers; fitting many
// ranks into few rows keeps the outlier.
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/task_pools.h"
#include "widgets/job/job_strip_view.h"
#include "widgets/job/strip_colors.h"
#include "widgets/job/strip_raster.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <memory>

using ks::core::JobOverview;
using ks::widgets::StripPalette;

namespace {

// The visible bins of one test zoom, as fractions of the profile.
struct Zoom
{
    double first;
    double last;
};

// The whole job; a zoom in to fewer bins than columns (each column a part of a
// bin); a window not aligned to bins; the last bins.
const Zoom kZooms[] = { { 0.0, 1.0 }, { 0.4, 0.41 }, { 0.1337, 0.6021 }, { 0.9, 1.0 } };

// The colour of one pixel, computed the straightforward way.
QRgb referenceColor(const StripPalette& palette, const JobOverview& job, std::size_t row, double first,
    double last, int x, int columns)
{
    const double span = last - first;
    const double lo = first + span * x / columns;
    const double hi = first + span * (x + 1) / columns;
    return ks::widgets::stripColor(palette, ks::widgets::averageShares(job.profiles.row(row), lo, hi));
}

// Every pixel of `image` (one row per rank) against referenceColor; the first
// mismatch as a message, or empty.
QString compareWithReference(const QImage& image, const JobOverview& job, double first, double last)
{
    const auto palette = StripPalette::standard();
    const int columns = image.width();
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < columns; ++x) {
            const QRgb want =
                referenceColor(palette, job, static_cast<std::size_t>(y), first, last, x, columns);
            if (image.pixel(x, y) != want)
                return QStringLiteral("rank row %1, column %2 of %3, bins [%4, %5): %6 instead of %7")
                    .arg(y)
                    .arg(x)
                    .arg(columns)
                    .arg(first)
                    .arg(last)
                    .arg(QColor(image.pixel(x, y)).name(), QColor(want).name());
        }
    return {};
}

} // namespace

class TstStripRaster : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::shared_ptr<const JobOverview> m_synthetic; // 6 ranks, rank 2 slowed down
    std::shared_ptr<const JobOverview> m_real; // ../shared/traces/two_ranks_sampled

    static std::shared_ptr<const JobOverview> summarise(const QString& folder, const QString& out)
    {
        auto written = ks::core::summarizeJob({ folder.toStdString() }, out.toStdString(), {});
        if (!written)
            qFatal("%s", written.error().describe().c_str());
        auto job = ks::core::readJobOverview(out.toStdString());
        if (!job)
            qFatal("%s", job.error().describe().c_str());
        return std::make_shared<const JobOverview>(std::move(job).value());
    }

    // The strips of `job` at each zoom and width, through the view (which
    // rasters on `pools` when given), compared with the reference.
    static void checkView(const std::shared_ptr<const JobOverview>& job, ks::widgets::TaskPools* pools)
    {
        ks::widgets::JobStripView view(pools);
        view.setJob(job);
        const double bins = static_cast<double>(job->profiles.bins);
        for (const int width : { 300, 1111 }) {
            view.resize(width, 400);
            for (const Zoom& zoom : kZooms) {
                view.setVisibleBins(zoom.first * bins, zoom.last * bins);
                const auto [first, last] = view.visibleBins();
                const QImage& image = view.stripImage();
                QCOMPARE(image.width(), view.stripArea().width());
                QCOMPARE(image.height(), static_cast<int>(job->ranks.size()));
                const QString mismatch = compareWithReference(image, *job, first, last);
                QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
            }
        }
    }

private slots:

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const auto options =
            ks::test::syntheticJob(m_dir.filePath(QStringLiteral("job")), 6, 100'000, 11, { 2 }, 2.0);
        QVERIFY(ks::core::generateSyntheticTraces(options).ok());
        m_synthetic =
            summarise(m_dir.filePath(QStringLiteral("job")), m_dir.filePath(QStringLiteral("job.kssum")));
        QVERIFY(m_synthetic->profiles.bins > 100);
        const QString real = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (QDir(real).exists())
            m_real = summarise(real, m_dir.filePath(QStringLiteral("real.kssum")));
    }

    void fastPathDrawsTheReferenceColours() { checkView(m_synthetic, nullptr); }

    void fastPathOnTheWorkersDrawsTheReferenceColours()
    {
        ks::widgets::TaskPools pools(2);
        checkView(m_synthetic, &pools);
    }

    void fastPathOnARealTrace()
    {
        if (!m_real)
            QSKIP("../shared/traces/two_ranks_sampled is not available");
        // The recorded ranks are busy somewhere: the comparison is not between two idle images.
        bool busy = false;
        for (const auto& shares : m_real->profiles.shares)
            busy = busy || ks::widgets::busyFraction(shares) > 0.5;
        QVERIFY(busy);
        checkView(m_real, nullptr);
    }

    void columnWeightsCoverEachColumnOnce()
    {
        // Over whole bins, every column's weights sum to 1 and the columns
        // together read every bin.
        const auto weights = ks::widgets::columnWeights(0.0, 100.0, 37, 100);
        QCOMPARE(weights.columns(), 37);
        double total = 0;
        for (int x = 0; x < weights.columns(); ++x) {
            double column = 0;
            for (auto i = weights.offsets[static_cast<std::size_t>(x)];
                 i < weights.offsets[static_cast<std::size_t>(x) + 1]; ++i)
                column += weights.weights[i];
            QVERIFY2(std::abs(column - 1.0) < 1e-5, qPrintable(QString::number(column)));
            total += column * 100.0 / 37;
        }
        QVERIFY(std::abs(total - 100.0) < 1e-3);
        QCOMPARE(weights.bins.front(), 0u);
        QCOMPARE(weights.bins.back(), 99u);
        // Beyond the profile's end nothing is read.
        const auto clipped = ks::widgets::columnWeights(90.0, 120.0, 30, 100);
        for (const auto b : clipped.bins)
            QVERIFY(b < 100);
    }

    void fittingKeepsTheOutlierOfEachGroup()
    {
        // 9 ranks in 3 rows: ranks 0-8 idle grey except rank 4 (in the middle
        // group) in pure red over the left half.
        QImage image(8, 9, QImage::Format_RGB32);
        image.fill(qRgb(200, 200, 200));
        for (int x = 0; x < 4; ++x)
            image.setPixel(x, 4, qRgb(255, 0, 0));
        ks::widgets::TaskPools pools(2);
        for (const ks::core::ParallelFor& parallelFor :
            { ks::core::ParallelFor(ks::core::runSequentially), pools.parallelFor() }) {
            const QImage fitted = ks::widgets::fitStripRows(image, 3, parallelFor);
            QCOMPARE(fitted.size(), QSize(8, 3));
            for (int x = 0; x < 8; ++x) {
                QCOMPARE(fitted.pixel(x, 0), qRgb(200, 200, 200));
                QCOMPARE(fitted.pixel(x, 1), x < 4 ? qRgb(255, 0, 0) : qRgb(200, 200, 200));
                QCOMPARE(fitted.pixel(x, 2), qRgb(200, 200, 200));
            }
        }
    }
};

KS_TEST_MAIN(tst_strip_raster, TstStripRaster)
#include "tst_strip_raster.moc"
