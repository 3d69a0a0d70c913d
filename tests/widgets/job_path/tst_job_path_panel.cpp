// The Job Critical Path dock's panel: segments in path order, a click asks
// for that segment's event on its rank, stragglers with their reason, and the
// what-if field's rules and before/after text.

#include "tests/support/test_main.h"
#include "widgets/common/format.h"
#include "widgets/job_path/job_path_panel.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace ks;

namespace {

core::CondensedRank rank(std::int64_t r, core::TimeNs arrival, core::TimeNs end, core::TimeNs before,
    const std::string& op, std::int64_t event)
{
    core::CondensedRank out;
    out.rank = r;
    out.collectives.push_back({ 0, "allreduce", arrival, end, -1, 3, true });
    out.edges.push_back(
        { core::CondensedRank::kStart, 0, before, { { op, core::PathBound::Cpu, 0, before, event } }, {} });
    out.edges.push_back({ out.endOfCollective(0), out.rankEnd(), 1000,
        { { "tail", core::PathBound::Cpu, end, 1000, 9 } }, {} });
    return out;
}

std::shared_ptr<const core::JobCriticalPath> twoRanks(core::TimeNs slow)
{
    auto job = std::make_shared<core::JobCriticalPath>();
    // Every member leaves 1 ms after rank 1 arrives.
    const core::TimeNs end = slow + 1'000'000;
    job->ranks = { rank(0, 2'000'000, end, 2'000'000, "fast", 4), rank(1, slow, end, slow, "slow", 7) };
    job->path = core::joinCondensedRanks(job->ranks);
    job->measuredTime = 10'000'000;
    return job;
}

} // namespace

class TestJobPathPanel : public QObject
{
    Q_OBJECT

private slots:
    void showsPathAndStragglers();
    void whatIf();
};

void TestJobPathPanel::showsPathAndStragglers()
{
    widgets::JobPathPanel panel;
    panel.setPath(twoRanks(8'000'000));
    // slow (rank 1), transfer, tail
    QCOMPARE(panel.segments()->model()->rowCount(), 3);
    QCOMPARE(panel.segments()->model()->index(0, 4).data().toString(), QStringLiteral("slow"));
    QCOMPARE(panel.segments()->model()->index(0, 1).data().toString(), QStringLiteral("1"));
    QCOMPARE(panel.segments()->model()->index(1, 2).data().toString(), QStringLiteral("transfer"));
    QSignalSpy activated(&panel, &widgets::JobPathPanel::segmentActivated);
    emit panel.segments()->clicked(panel.segments()->model()->index(0, 0));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toLongLong(), 1LL);
    QCOMPARE(activated.at(0).at(1).toLongLong(), 7LL);
    QCOMPARE(panel.stragglers()->rowCount(), 1);
    QCOMPARE(panel.stragglers()->item(0, 1)->text(), QStringLiteral("1"));
    QVERIFY(panel.stragglers()->item(0, 3)->text().contains(QStringLiteral("+8.0 ms in slow")));
}

void TestJobPathPanel::whatIf()
{
    widgets::JobPathPanel panel;
    panel.setPath(twoRanks(8'000'000));
    QSignalSpy requested(&panel, &widgets::JobPathPanel::whatIfRequested);
    panel.whatIfRules()->setText(QStringLiteral("slow=0.5; kind:transfer=0"));
    emit panel.whatIfRules()->returnPressed();
    QCOMPARE(requested.count(), 1);
    QCOMPARE(requested.at(0).at(0).toStringList(),
        (QStringList { QStringLiteral("slow=0.5"), QStringLiteral("kind:transfer=0") }));
    panel.showWhatIf(twoRanks(4'000'000));
    // the new path's first segment is rank 1's shorter op; text says before and after
    QCOMPARE(panel.segments()->model()->index(0, 3).data().toString(), QStringLiteral("4.00 ms"));
    QCOMPARE(panel.segments()->model()->index(0, 3).data(widgets::kRawTextRole).toString(),
        QStringLiteral("4.000000"));
    const QLabel* label = panel.findChildren<QLabel*>().last();
    QVERIFY2(label->text().contains(QStringLiteral("10.000 → 6.000 ms")), qPrintable(label->text()));
}

KS_TEST_MAIN(tst_job_path_panel, TestJobPathPanel)
#include "tst_job_path_panel.moc"
