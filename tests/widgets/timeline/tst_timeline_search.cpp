// Search (T6): substring and regular expression, case, order over ranks,
// stepping with wrap-around, and the highlight flags the renderer draws.
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "widgets/timeline/model/draw_list.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ks;
using namespace ks::widgets;

namespace {

QByteArray rankTrace(int rank, int shiftUs)
{
    const QByteArray s = QByteArray::number(1000 + shiftUs);
    auto at = [&](int us) { return QByteArray::number(1000 + shiftUs + us); };
    return QByteArrayLiteral(R"({"distributedInfo": {"rank": )") + QByteArray::number(rank)
        + QByteArrayLiteral(R"(},
 "traceEvents": [
  {"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":)")
        + at(0) + QByteArrayLiteral(R"(,"dur":10},
  {"ph":"X","cat":"cpu_op","name":"aten::mul","pid":1,"tid":1,"ts":)")
        + at(20) + QByteArrayLiteral(R"(,"dur":10},
  {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":1,"tid":1,"ts":)")
        + at(40) + QByteArrayLiteral(R"(,"dur":10},
  {"ph":"X","cat":"kernel","name":"add_kernel","pid":0,"tid":7,"ts":)")
        + at(5) + QByteArrayLiteral(R"(,"dur":3,"args":{"stream":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce","pid":0,"tid":7,"ts":)")
        + at(30) + QByteArrayLiteral(R"(,"dur":5,"args":{"stream":7,"device":0}}
 ]})");
}

std::shared_ptr<const core::TraceSet> loadTwoRanks()
{
    QTemporaryDir dir;
    for (int r = 0; r < 2; ++r) {
        QFile f(dir.filePath(QStringLiteral("rank-%1.json").arg(r)));
        const QByteArray json = rankTrace(r, r == 0 ? 0 : 3); // rank 1 recorded 3 µs later
        if (!f.open(QIODevice::WriteOnly) || f.write(json) != json.size())
            return nullptr;
    }
    auto r = core::loadTraceSet({ dir.path().toStdString() }, {}, nullptr, nullptr);
    return r ? std::make_shared<const core::TraceSet>(std::move(r).value()) : nullptr;
}

QStringList names(const TimelineData& data, const SearchResults& results)
{
    QStringList out;
    for (SliceRef ref : results.ordered)
        out.append(QStringLiteral("%1:%2").arg(ref.rank).arg(
            QString::fromStdString(std::string(data.trace(ref.rank).sliceName(ref.slice)))));
    return out;
}

} // namespace

class TimelineSearchTest : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const TimelineData> m_data;

private slots:

    void initTestCase()
    {
        auto set = loadTwoRanks();
        QVERIFY(set && set->ranks.size() == 2);
        m_data = TimelineData::build(set);
    }

    void substringIsCaseInsensitiveAndTimeOrdered()
    {
        const auto results = runSearch(*m_data, { QStringLiteral("ADD") }, Alignment::AsRecorded);
        QVERIFY(results->error.isEmpty());
        QCOMPARE(names(*m_data, *results),
            QStringList({ QStringLiteral("0:aten::add"), QStringLiteral("1:aten::add"),
                QStringLiteral("0:add_kernel"), QStringLiteral("1:add_kernel"),
                QStringLiteral("0:aten::addmm"), QStringLiteral("1:aten::addmm") }));
        QCOMPARE(results->rank(0)->slices.size(), std::size_t(3));
    }

    void caseSensitiveAndRegex()
    {
        SearchQuery q { QStringLiteral("ADD"), false, true };
        QCOMPARE(runSearch(*m_data, q, Alignment::AsRecorded)->size(), std::size_t(0));
        q = { QStringLiteral("^aten::(add|mul)$"), true, false };
        const auto results = runSearch(*m_data, q, Alignment::AsRecorded);
        QCOMPARE(results->size(), std::size_t(4));
        q = { QStringLiteral("nccl.*Reduce"), true, false };
        QCOMPARE(runSearch(*m_data, q, Alignment::AsRecorded)->size(), std::size_t(2));
        q = { QStringLiteral("(unclosed"), true, false };
        const auto bad = runSearch(*m_data, q, Alignment::AsRecorded);
        QVERIFY(!bad->error.isEmpty());
        QCOMPARE(bad->size(), std::size_t(0));
        QVERIFY(runSearch(*m_data, {}, Alignment::AsRecorded)->ordered.empty());
    }

    void alignmentOrdersByDisplayTime()
    {
        // Aligned on their starts, rank 0's and rank 1's add_kernel start together: rank order breaks the
        // tie.
        const auto results = runSearch(*m_data, { QStringLiteral("add_kernel") }, Alignment::RankStart);
        QCOMPARE(names(*m_data, *results),
            QStringList({ QStringLiteral("0:add_kernel"), QStringLiteral("1:add_kernel") }));
    }

    void steppingWrapsAround()
    {
        const auto results = runSearch(*m_data, { QStringLiteral("aten::") }, Alignment::AsRecorded);
        QCOMPARE(results->size(), std::size_t(6));
        QCOMPARE(results->nextIndex(*m_data, {}, true), 0);
        QCOMPARE(results->nextIndex(*m_data, {}, false), 5);
        QCOMPARE(results->nextIndex(*m_data, results->ordered[2], true), 3);
        QCOMPARE(results->nextIndex(*m_data, results->ordered[5], true), 0);
        QCOMPARE(results->nextIndex(*m_data, results->ordered[0], false), 5);
        QCOMPARE(results->indexOf(*m_data, results->ordered[4]), 4);
        // From a slice that is not a match: the next match after it in time.
        const core::RankTrace& t = m_data->trace(0);
        std::uint32_t kernel = 0;
        while (t.sliceName(kernel) != "add_kernel")
            ++kernel;
        const auto next = results->nextIndex(*m_data, { 0, kernel }, true);
        QCOMPARE(names(*m_data, *results)[next], QStringLiteral("0:aten::mul"));
    }

    void drawListFlagsMatches()
    {
        const auto results = runSearch(*m_data, { QStringLiteral("mul") }, Alignment::AsRecorded);
        const RankTimeline& rt = m_data->rank(0);
        const core::RankTrace& t = *rt.trace;
        SliceDrawParams params;
        params.raw = { t.startNs, t.endNs };
        params.width = 2000;
        params.matches = results->rank(0);
        int matched = 0;
        for (std::uint32_t track = 0; track < t.tracks.size(); ++track) {
            for (const SliceDrawItem& item : buildSliceDrawList(rt, track, params)) {
                const bool isMul = t.sliceName(item.slice) == "aten::mul";
                QCOMPARE(bool(item.flags & kDrawMatch), isMul);
                matched += isMul ? 1 : 0;
            }
        }
        QCOMPARE(matched, 1);
        QCOMPARE(results->rank(0)->countIn(0, static_cast<std::uint32_t>(t.slices.size())), std::size_t(1));
    }
};

KS_TEST_MAIN(tst_timeline_search, TimelineSearchTest)
#include "tst_timeline_search.moc"
