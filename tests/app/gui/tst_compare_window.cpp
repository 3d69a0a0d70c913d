// The compare window (D1-D3) on the shared diff pair: its table is the core's
// compare_traces, its two timelines share one axis aligned on an iteration,
// diff colours reach the draw lists, and a row click shows the name on both sides.
#include "app/gui/compare_window.h"
#include "core/analysis/hta/trace_diff.h"
#include "core/io/trace_set_loader.h"
#include "tests/support/test_main.h"
#include "widgets/diff/diff_classification.h"
#include "widgets/diff/diff_filter_proxy.h"
#include "widgets/diff/diff_table_model.h"
#include "widgets/diff/iteration_alignment.h"
#include "widgets/diff/timeline_sync.h"
#include "widgets/timeline/model/draw_list.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace ks;
using widgets::DiffClass;
using widgets::TimeNs;

class TestCompareWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<app::CompareWindow> m_window;
    std::optional<core::DiffTrace> m_core[2];

    static QString folder(int side)
    {
        return QStringLiteral(KS_SHARED_DIR "/traces/")
            + (side == 0 ? QStringLiteral("diff_control") : QStringLiteral("diff_test"));
    }

    TimeNs rulerOf(int side, TimeNs display) const { return m_window->sync()->toRuler(side, display); }

    // The x in the track area of a display time on one side, at a 1000 px wide view.
    double xOf(int side, TimeNs display) const
    {
        const widgets::TimeRange v = m_window->timeline(side)->state()->visibleRange();
        return double(display - v.start) * 1000.0 / double(v.span());
    }

    // The first row (in the proxy) whose status is `wanted` and whose name has slices on both views when
    // asked.
    int rowOf(DiffClass wanted) const
    {
        for (int r = 0; r < m_window->tableProxy()->rowCount(); ++r) {
            if (m_window->tableProxy()->index(r, 0).data(widgets::DiffTableModel::ClassRole).toInt()
                == int(wanted))
                return r;
        }
        return -1;
    }

private slots:

    void initTestCase()
    {
        if (!QDir(folder(0)).exists() || !QDir(folder(1)).exists())
            QSKIP("The shared diff traces are absent: " KS_SHARED_DIR "/traces/diff_control, diff_test");
        for (int side = 0; side < 2; ++side) {
            auto set = core::loadTraceSet({ folder(side).toStdString() }, {}, nullptr, nullptr);
            QVERIFY(set);
            auto diff = core::loadDiffTrace(set.value(), core::AnalysisMode::Default);
            QVERIFY(diff);
            m_core[side] = std::move(diff).value();
        }
        m_window = std::make_unique<app::CompareWindow>();
        m_window->resize(1400, 1000);
        m_window->show();
        QSignalSpy ready(m_window.get(), &app::CompareWindow::comparisonReady);
        m_window->compare(folder(0), folder(1));
        QVERIFY(ready.wait(240000));
        QVERIFY(!m_window->isBusy());
    }

    void tableEqualsCoreCompareTraces_data()
    {
        QTest::addColumn<int>("device");
        QTest::addColumn<bool>("shortNames");
        QTest::newRow("all") << int(core::DiffDevice::All) << false;
        QTest::newRow("gpu") << int(core::DiffDevice::Gpu) << false;
        QTest::newRow("cpu, short names") << int(core::DiffDevice::Cpu) << true;
    }

    void tableEqualsCoreCompareTraces()
    {
        QFETCH(int, device);
        QFETCH(bool, shortNames);
        QComboBox* deviceBox = m_window->deviceBox();
        deviceBox->setCurrentIndex(deviceBox->findData(device));
        emit deviceBox->activated(deviceBox->currentIndex());
        m_window->shortNamesBox()->setChecked(shortNames);

        core::TraceDiffOptions options;
        const auto step = m_window->iteration();
        QVERIFY(step);
        QCOMPARE(*step, std::max(m_core[0]->iterations.front(), m_core[1]->iterations.front()));
        options.control.iterations = options.test.iterations = std::vector<std::int64_t> { *step };
        options.device = core::DiffDevice(device);
        options.shortNames = shortNames;
        const core::AnalysisOutput expected = core::compareTraces(*m_core[0], *m_core[1], options);
        QVERIFY(expected.ok);
        const core::Table& table = expected.result.frame;
        widgets::DiffTableModel* model = m_window->tableModel();
        QVERIFY(table.rows.size() > 10);
        QCOMPARE(model->rowCount(), int(table.rows.size()));
        QCOMPARE(model->columnCount(), int(table.columns.size()) + 1);
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            for (std::size_t c = 0; c < table.columns.size(); ++c) {
                const QVariant sort = model->index(int(r), int(c)).data(widgets::DiffTableModel::SortRole);
                const core::Cell cell = table.rows[r][c];
                if (std::holds_alternative<std::string>(cell))
                    QCOMPARE(sort.toString(), QString::fromStdString(std::get<std::string>(cell)));
                else
                    QCOMPARE(sort.toDouble(), core::cellAsDouble(cell).value());
            }
        }
        m_window->shortNamesBox()->setChecked(false);
        deviceBox->setCurrentIndex(deviceBox->findData(int(core::DiffDevice::All)));
        emit deviceBox->activated(deviceBox->currentIndex());
    }

    void zoomOnOneMovesTheOther()
    {
        widgets::TimelineViewState* control = m_window->timeline(0)->state();
        widgets::TimelineViewState* test = m_window->timeline(1)->state();
        const widgets::TimeRange before = control->visibleRange();
        const TimeNs mid = before.start + before.span() / 2;
        control->setVisibleRange({ mid - before.span() / 8, mid + before.span() / 8 });
        QCOMPARE(rulerOf(1, test->visibleRange().start), rulerOf(0, control->visibleRange().start));
        QCOMPARE(rulerOf(1, test->visibleRange().end), rulerOf(0, control->visibleRange().end));
        QVERIFY(control->visibleRange().span() < before.span() / 2);
        // And the other way round, through the view's own zoom.
        m_window->timeline(1)->view()->zoomBy(0.5, m_window->timeline(1)->view()->width() / 2.0);
        QCOMPARE(rulerOf(0, control->visibleRange().start), rulerOf(1, test->visibleRange().start));
        QCOMPARE(rulerOf(0, control->visibleRange().end), rulerOf(1, test->visibleRange().end));
    }

    void iterationStartsAtTheSameX()
    {
        QComboBox* box = m_window->iterationBox();
        QVERIFY(box->count() >= 1);
        for (int i = box->count() - 1; i >= 0; --i) {
            box->setCurrentIndex(i);
            emit box->activated(i);
            const std::int64_t step = box->currentData().toLongLong();
            double x[2] = {};
            for (int side = 0; side < 2; ++side) {
                const auto& data = *m_window->timeline(side)->data();
                const auto start = widgets::iterationStart(data.trace(0), step);
                QVERIFY(start);
                const TimeNs display =
                    *start - data.offset(0, m_window->timeline(side)->state()->alignment());
                QCOMPARE(rulerOf(side, display), TimeNs(0));
                x[side] = xOf(side, display);
            }
            QCOMPARE(x[0], x[1]);
            QVERIFY(x[0] >= 0 && x[0] < 100); // the step begins near the left edge of the framed view
        }
    }

    void addedNameIsDrawnInTheAddedColour()
    {
        const int row = rowOf(DiffClass::Added);
        QVERIFY(row >= 0);
        const QString name =
            m_window->tableProxy()->index(row, 0).data(widgets::DiffTableModel::NameRole).toString();
        const QModelIndex source = m_window->tableProxy()->mapToSource(m_window->tableProxy()->index(row, 0));
        const auto cells = m_window->tableModel()->table()->rows[std::size_t(source.row())];
        QCOMPARE(core::cellAsDouble(cells[1]).value_or(-1), 0.0); // no control instance
        QVERIFY(core::cellAsDouble(cells[3]).value_or(0) > 0);

        const auto data = m_window->timeline(1)->data();
        const core::RankTrace& trace = data->trace(0);
        std::uint32_t slice = core::kNoRow;
        for (std::uint32_t s = 0; s < trace.slices.size() && slice == core::kNoRow; ++s) {
            if (QString::fromUtf8(trace.sliceName(s).data(), qsizetype(trace.sliceName(s).size())) == name)
                slice = s;
        }
        QVERIFY(slice != core::kNoRow);
        const std::uint32_t nameId = trace.slices.name[slice].value;
        QVERIFY(data->nameClasses(0));
        QCOMPARE(int((*data->nameClasses(0))[nameId]), int(DiffClass::Added));

        // Drawn: the slice's own rectangle at a zoom where it is wide.
        widgets::SliceDrawParams params;
        params.raw = { trace.slices.start[slice] - 10, trace.slices.end(slice) + 10 };
        params.width = 1000;
        params.mode = widgets::ColorMode::Diff;
        params.nameClasses = data->nameClasses(0);
        const auto items = widgets::buildSliceDrawList(data->rank(0), trace.trackOf(slice).value, params);
        const auto it =
            std::find_if(items.begin(), items.end(), [slice](const auto& i) { return i.slice == slice; });
        QVERIFY(it != items.end());
        QCOMPARE(it->colorKey, widgets::diffColorKey(data->rank(0).sliceKind[slice], DiffClass::Added));
        const widgets::TimelinePalette palette;
        QCOMPARE(
            palette.fill(it->colorKey), palette.fill(widgets::kDiffKeyBase + std::uint8_t(DiffClass::Added)));
        QVERIFY(palette.fill(it->colorKey) != palette.fill(widgets::diffColorKey(0, DiffClass::Unchanged)));
        // An unchanged name on the same side stays faded.
        QCOMPARE(m_window->timeline(1)->state()->colorMode(), widgets::ColorMode::Diff);
    }

    void statusFilterKeepsOnlyThatClass()
    {
        m_window->tableProxy()->setStatusFilter(DiffClass::Removed);
        QVERIFY(m_window->tableProxy()->rowCount() > 0);
        for (int r = 0; r < m_window->tableProxy()->rowCount(); ++r)
            QCOMPARE(m_window->tableProxy()->index(r, 0).data(widgets::DiffTableModel::ClassRole).toInt(),
                int(DiffClass::Removed));
        m_window->tableProxy()->setStatusFilter(std::nullopt);
    }

    void clickingARowSelectsTheNameOnBothSides()
    {
        // A name on both sides: a slower or faster row.
        int row = rowOf(DiffClass::Slower);
        if (row < 0)
            row = rowOf(DiffClass::Faster);
        QVERIFY(row >= 0);
        QTableView* table = m_window->tableView();
        const QModelIndex index = m_window->tableProxy()->index(row, 0);
        const QString name = index.data(widgets::DiffTableModel::NameRole).toString();
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        for (int side = 0; side < 2; ++side) {
            widgets::TimelineWidget* timeline = m_window->timeline(side);
            const widgets::SliceRef ref = timeline->state()->selectedSlice();
            QVERIFY2(ref.valid(), qPrintable(name));
            const auto sliceName = timeline->data()->trace(ref.rank).sliceName(ref.slice);
            QCOMPARE(QString::fromUtf8(sliceName.data(), qsizetype(sliceName.size())), name);
            QVERIFY(timeline->searchResults() && timeline->searchResults()->size() > 0);
            // The selected instance is in view.
            const widgets::TimeRange v = timeline->state()->visibleRange();
            const TimeNs start = timeline->data()->trace(ref.rank).slices.start[ref.slice]
                - timeline->data()->offset(ref.rank, timeline->state()->alignment());
            QVERIFY(start >= v.start && start <= v.end);
        }
    }
};

KS_TEST_MAIN(tst_compare_window, TestCompareWindow)
#include "tst_compare_window.moc"
