// Charts at many ranks ("charts adapt to many ranks"): a synthetic
// job of 100 ranks, rank 17 slowed down three times, loaded in full and
// analysed; every analysis chart then labels at most 64 categories, draws no
// bar chart of more than 64 bars and no legend of a hundred ranks, and the
// per-rank charts are distributions over the ranks with rank 17 labelled
// where it is an outlier.
#include "core/io/trace_set_loader.h"
#include "core/session/analysis_catalog.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/charts/chart_style.h"

#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace ks;

namespace {

constexpr int kRanks = 100;

QStringList outlierLabels(const widgets::AnalysisChart& chart)
{
    QStringList out;
    for (int i = 0; i < chart.itemCount(); ++i)
        if (chart.item(i)->objectName() == QStringLiteral("outlier"))
            out << static_cast<QCPItemText*>(chart.item(i))->text();
    return out;
}

} // namespace

class TestChartsManyRanks : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::map<std::string, std::shared_ptr<const core::AnalysisOutput>> m_outputs;

private slots:

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const core::SynthOptions synth =
            test::syntheticJob(m_dir.filePath(QStringLiteral("job")), kRanks, 40'000, 3, { 17 }, 3.0);
        QVERIFY(core::generateSyntheticTraces(synth).ok());
        auto loaded = core::loadTraceSet({ synth.outDir }, {}, nullptr, nullptr);
        QVERIFY(loaded);
        QCOMPARE(loaded.value().ranks.size(), std::size_t { kRanks });
        const core::AnalysisOptions options;
        auto frames = core::buildFrames(loaded.value(), options);
        QVERIFY(frames);
        std::vector<std::int64_t> ranks;
        for (std::int64_t r = 0; r < kRanks; ++r)
            ranks.push_back(r);
        for (const core::AnalysisCall& call : core::analysisCalls(options, ranks))
            if (!m_outputs.count(call.htaCall))
                m_outputs[call.htaCall] =
                    std::make_shared<core::AnalysisOutput>(call.run(frames.value(), call.options));
    }

    void everyChartStaysReadable_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("call");
        QTest::addColumn<bool>("distribution"); // drawn over the ranks, not a bar per rank
        using K = widgets::AnalysisChartKind;
        QTest::newRow("temporal") << int(K::Temporal) << QStringLiteral("get_temporal_breakdown") << true;
        QTest::newRow("idle") << int(K::Idle) << QStringLiteral("get_idle_time_breakdown") << true;
        QTest::newRow("types") << int(K::KernelTypes) << QStringLiteral("get_gpu_kernel_breakdown") << false;
        QTest::newRow("durations") << int(K::KernelDurations) << QStringLiteral("get_gpu_kernel_breakdown")
                                   << true;
        QTest::newRow("overlap") << int(K::Overlap) << QStringLiteral("get_comm_comp_overlap") << true;
        QTest::newRow("memory") << int(K::MemoryBandwidth) << QStringLiteral("get_memory_bw_summary") << true;
        QTest::newRow("queue") << int(K::QueueLength) << QStringLiteral("get_queue_length_summary") << true;
        QTest::newRow("launches") << int(K::LaunchStats) << QStringLiteral("get_cuda_kernel_launch_stats")
                                  << false;
    }

    void everyChartStaysReadable()
    {
        QFETCH(int, kind);
        QFETCH(QString, call);
        QFETCH(bool, distribution);
        const auto& output = m_outputs.at(call.toStdString());
        QVERIFY2(output->ok, output->error.c_str());
        widgets::AnalysisView view(static_cast<widgets::AnalysisChartKind>(kind));
        view.setResult(output);
        widgets::AnalysisChart* chart = view.chart();
        QVERIFY(chart);
        QVERIFY(chart->plottableCount() > 0);
        for (QCPAxis* axis : chart->axisRect()->axes()) {
            if (auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>())
                QVERIFY2(ticker->ticks().size() <= widgets::kMaxLabelledCategories,
                    qPrintable(QStringLiteral("%1 labelled categories").arg(ticker->ticks().size())));
        }
        for (int i = 0; i < chart->plottableCount(); ++i)
            if (auto* bars = qobject_cast<QCPBars*>(chart->plottable(i)))
                QVERIFY2(bars->dataCount() <= widgets::kMaxLabelledCategories,
                    qPrintable(QStringLiteral("%1: %2 bars").arg(bars->name()).arg(bars->dataCount())));
        QVERIFY2(chart->legend->itemCount() <= 16, qPrintable(QString::number(chart->legend->itemCount())));
        if (distribution) {
            // A sorted stacked area (graphs over the 100 ranks) or boxes over the ranks.
            int overRanks = 0;
            for (int i = 0; i < chart->plottableCount(); ++i) {
                if (auto* graph = qobject_cast<QCPGraph*>(chart->plottable(i)))
                    overRanks += graph->dataCount() == kRanks;
                if (qobject_cast<QCPStatisticalBox*>(chart->plottable(i)))
                    ++overRanks;
            }
            QVERIFY(overRanks > 0);
        }
    }

    void theSlowRankIsLabelled()
    {
        // Rank 17 computes three times longer: the temporal breakdown's
        // outlier by compute, and an outlier of the top kernels' durations.
        widgets::AnalysisView temporal(widgets::AnalysisChartKind::Temporal);
        temporal.setResult(m_outputs.at("get_temporal_breakdown"));
        QVERIFY2(outlierLabels(*temporal.chart()).contains(QStringLiteral("rank 17")),
            qPrintable(outlierLabels(*temporal.chart()).join(u',')));
        widgets::AnalysisView durations(widgets::AnalysisChartKind::KernelDurations);
        durations.setResult(m_outputs.at("get_gpu_kernel_breakdown"));
        QVERIFY2(outlierLabels(*durations.chart()).contains(QStringLiteral("rank 17")),
            qPrintable(outlierLabels(*durations.chart()).join(u',')));
        // The idle chart sums each rank's streams and labels the outliers by
        // rank, never a "r17 · s7" slot.
        widgets::AnalysisView idle(widgets::AnalysisChartKind::Idle);
        idle.setResult(m_outputs.at("get_idle_time_breakdown"));
        for (const QString& label : outlierLabels(*idle.chart()))
            QVERIFY2(label.startsWith(QStringLiteral("rank ")), qPrintable(label));
    }
};

KS_TEST_MAIN(tst_charts_many_ranks, TestChartsManyRanks)
#include "tst_charts_many_ranks.moc"
