// StringPool: every text interned once, ids dense and stable, views that stay
// valid while the pool grows, and lookups of texts never interned.

// Through rank_trace.h (the pool of a rank's names): moc, which reads this file,
// cannot parse <compare> when string_pool.h is the first header to reach it.
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <string>
#include <vector>

using namespace ks::core;

class TestStringPool : public QObject
{
    Q_OBJECT

private slots:

    void emptyTextIsIdZero()
    {
        StringPool pool;
        QCOMPARE(pool.intern({}).value, 0u);
        QCOMPARE(pool.find({}).value, 0u);
        QCOMPARE(pool.size(), std::size_t(1));
        QVERIFY(!pool.find("absent").valid());
    }

    // 200 k texts, each interned twice between others: the table grows many
    // times and probes past occupied slots; every id and view must survive.
    void manyTextsKeepTheirIdsAndViews()
    {
        StringPool pool;
        std::vector<std::string> texts;
        for (int i = 0; i < 200000; ++i)
            texts.push_back((i % 3 ? "aten::op_" : "void kernel<") + std::to_string(i * 7919 % 200003));
        std::vector<NameId> ids;
        std::vector<std::string_view> firstViews;
        for (const std::string& t : texts) {
            ids.push_back(pool.intern(t));
            firstViews.push_back(pool.view(ids.back()));
        }
        QCOMPARE(pool.size(), texts.size() + 1);
        for (std::size_t i = 0; i < texts.size(); ++i) {
            QCOMPARE(ids[i].value, static_cast<std::uint32_t>(i + 1)); // dense, in first-seen order
            QCOMPARE(pool.intern(texts[i]).value, ids[i].value);
            QCOMPARE(pool.find(texts[i]).value, ids[i].value);
            QCOMPARE(pool.view(ids[i]), std::string_view(texts[i]));
            QVERIFY(pool.view(ids[i]).data()
                == firstViews[i].data()); // the text never moved (pointers, not strcmp)
        }
        QCOMPARE(pool.size(), texts.size() + 1);
        QVERIFY(!pool.find("aten::op_-1").valid());
        QVERIFY(!pool.find(std::string(texts[5]) + "x").valid());
    }

    void longTextsAndPrefixesAreDistinct()
    {
        StringPool pool;
        const std::string longText(100000, 'k');
        const NameId a = pool.intern(longText);
        const NameId b = pool.intern(std::string_view(longText).substr(0, 99999));
        const NameId c = pool.intern("k");
        QVERIFY(a.value != b.value && b.value != c.value && a.value != c.value);
        QCOMPARE(pool.view(a).size(), std::size_t(100000));
        QCOMPARE(pool.intern(longText).value, a.value);
    }

    void movedPoolKeepsItsTexts()
    {
        StringPool pool;
        const NameId id = pool.intern("nccl:all_reduce");
        StringPool moved(std::move(pool));
        QCOMPARE(moved.find("nccl:all_reduce").value, id.value);
        QCOMPARE(moved.view(id), std::string_view("nccl:all_reduce"));
    }
};

KS_TEST_MAIN(tst_string_pool, TestStringPool)
#include "tst_string_pool.moc"
