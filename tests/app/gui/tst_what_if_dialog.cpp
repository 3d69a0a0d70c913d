// The what-if dialog on a synthetic 8-rank job
// with a straggler (rank 3's compute kernels twice as long, as `synth --ranks 8
// --stragglers 3 --slowdown 2` writes it). Halving GPU compute shortens the
// path; the dialog's before/after numbers and new segments are the core's
// (core::jobCriticalPath with the same rules); bad rules get a line naming the
// row and nothing is recomputed; the dock's field shows the same result.
#include "app/gui/main_window/main_window.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/what_if.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/io/trace_set_loader.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/test_main.h"
#include "widgets/common/format.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/job_path/path_segments_table.h"
#include "widgets/job_path/what_if_dialog.h"
#include "widgets/timeline/model/timeline_view_state.h"

#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace ks;

class TestWhatIfDialog : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<core::FrameSet> m_frames;

    // The core's answer for `rules`, independently of the app.
    core::JobCriticalPath expected(const std::vector<std::string>& rules) const
    {
        core::JobPathOptions options;
        std::vector<core::WhatIfRule> parsed;
        for (const std::string& text : rules)
            parsed.push_back(core::parseWhatIfRule(text).value());
        options.whatIf = core::WhatIfScaling(std::move(parsed));
        return core::jobCriticalPath(*m_frames, options).value();
    }

private slots:

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        core::SynthOptions options;
        options.ranks = 8;
        options.targetBytes = 400'000;
        options.seed = 7;
        options.outDir = m_dir.path().toStdString();
        options.stragglers = { 3 };
        options.slowdown = 2.0;
        QVERIFY(core::generateSyntheticTraces(options).ok());
        auto loaded = core::loadTraceSet({ options.outDir }, {}, nullptr, nullptr);
        QVERIFY(loaded);
        QCOMPARE(loaded.value().ranks.size(), std::size_t(8));
        auto frames = core::buildFrames(loaded.value(), core::AnalysisOptions {});
        QVERIFY(frames);
        m_frames = std::move(frames).value();
    }

    void applyShowsTheCoresBeforeAndAfter()
    {
        app::MainWindow window;
        window.show();
        // The path is the runner's second lane, after the docks.
        QSignalSpy ready(&window, &app::MainWindow::jobPathReady);
        window.openPaths({ m_dir.path() });
        QVERIFY(ready.wait(120000));
        auto* action = window.findChild<QAction*>(QStringLiteral("whatIfAction"));
        QVERIFY(action);
        action->trigger();
        auto* dialog = window.findChild<widgets::WhatIfDialog*>();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->ruleTable()->rowCount(), 1); // kind:gpu_compute=0.5 to start with
        QCOMPARE(dialog->rules().value(), QStringList { QStringLiteral("kind:gpu_compute=0.5") });

        const core::JobCriticalPath before = expected({});
        const core::JobCriticalPath after = expected({ "kind:gpu_compute=0.5" });
        QVERIFY(before.path.ok && after.path.ok);
        QVERIFY(after.path.length < before.path.length);
        QCOMPARE(dialog->comparison()->item(0, 1)->text(), widgets::pathMs(before.path.length));
        QVERIFY(dialog->comparison()->item(0, 2)->text().isEmpty());

        QSignalSpy shown(dialog, &widgets::WhatIfDialog::resultShown);
        dialog->apply();
        QVERIFY(shown.wait(60000));
        QTableWidget* c = dialog->comparison();
        QCOMPARE(c->item(0, 1)->text(), widgets::pathMs(before.path.length));
        QCOMPARE(c->item(0, 2)->text(), widgets::pathMs(after.path.length));
        QVERIFY(c->item(0, 3)->text().startsWith(QLatin1Char('-')));
        QCOMPARE(c->item(1, 1)->text(), widgets::pathMs(before.measuredTime));
        QCOMPARE(c->item(1, 2)->text(), widgets::pathMs(core::whatIfMeasuredTime(before, after)));
        // Per bound type: the sums of the core path's segments.
        for (std::size_t b = 0; b < core::kPathBoundCount; ++b) {
            core::TimeNs sum = 0;
            for (const core::PathSegment& s : after.path.segments)
                sum += s.piece.bound == static_cast<core::PathBound>(b) ? s.piece.duration : 0;
            QCOMPARE(c->item(2 + int(b), 2)->text(), widgets::pathMs(sum));
        }
        // The new path's segments, in path order.
        QCOMPARE(dialog->segments()->model()->rowCount(), int(after.path.segments.size()));
        for (int row = 0; row < dialog->segments()->model()->rowCount(); ++row) {
            const core::PathSegment& s = after.path.segments[static_cast<std::size_t>(row)];
            QCOMPARE(dialog->segments()->model()->index(row, 3).data().toString(),
                widgets::formatDuration(s.piece.duration));
            QCOMPARE(dialog->segments()->model()->index(row, 4).data().toString(),
                QString::fromStdString(s.piece.name.str()));
        }
        // The dock ran the same recomputation: its field holds the rule, its segments the new path.
        auto* panel = window.findChild<widgets::JobPathPanel*>();
        QVERIFY(panel);
        QCOMPARE(panel->whatIfRules()->text(), QStringLiteral("kind:gpu_compute=0.5"));
        QCOMPARE(panel->segments()->model()->rowCount(), int(after.path.segments.size()));

        // The dock's "Show on timeline" and the timeline's colour mode stay in step.
        QVERIFY(!panel->showOnTimelineButton()->isChecked());
        panel->showOnTimelineButton()->click();
        QCOMPARE(window.timelineState()->colorMode(), widgets::ColorMode::JobPath);
        QVERIFY(panel->showOnTimelineButton()->isChecked());
        window.timelineState()->setColorMode(widgets::ColorMode::KernelType);
        QVERIFY(!panel->showOnTimelineButton()->isChecked());

        // A bad rule: a clear line naming it, and nothing recomputed.
        dialog->addRule(widgets::WhatIfDialog::Match::Name, QStringLiteral("conv("), 0.5);
        QSignalSpy requested(dialog, &widgets::WhatIfDialog::applyRequested);
        dialog->apply();
        QCOMPARE(requested.count(), 0);
        QVERIFY2(dialog->status()->text().contains(QStringLiteral("rule 2")),
            qPrintable(dialog->status()->text()));
        dialog->addRule(widgets::WhatIfDialog::Match::Name, QString(), 0.5);
        dialog->ruleTable()->removeRow(1);
        dialog->apply();
        QCOMPARE(requested.count(), 0);
        QVERIFY2(dialog->status()->text().contains(QStringLiteral("rule 2: enter a name")),
            qPrintable(dialog->status()->text()));
    }
};

KS_TEST_MAIN(tst_what_if_dialog, TestWhatIfDialog)
#include "tst_what_if_dialog.moc"
