// runPaintWork: the frame's draw lists are built by the calling thread with
// pool threads helping. Every item runs exactly once whatever the pool does,
// the first exception comes back to the caller, and a frame started from a
// pool thread (export, tests) or with the pool full still finishes.
#include "tests/support/test_main.h"
#include "widgets/timeline/render/paint_work.h"

#include <QTest>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <stdexcept>
#include <vector>

using namespace ks::widgets;

class PaintWorkTest : public QObject
{
    Q_OBJECT

private slots:

    void everyItemOnce()
    {
        for (std::size_t n : { 0u, 1u, 2u, 3u, 17u, 1000u }) {
            std::vector<std::atomic<int>> runs(n);
            runPaintWork(n, [&](std::size_t i) { runs[i].fetch_add(1); });
            for (std::size_t i = 0; i < n; ++i)
                QCOMPARE(runs[i].load(), 1);
        }
    }

    void firstExceptionRethrown()
    {
        std::atomic<int> ran { 0 };
        bool caught = false;
        try {
            runPaintWork(64, [&](std::size_t i) {
                ran.fetch_add(1);
                if (i == 5)
                    throw std::runtime_error("item 5");
            });
        } catch (const std::runtime_error& e) {
            caught = true;
            QCOMPARE(QString::fromUtf8(e.what()), QStringLiteral("item 5"));
        }
        QVERIFY(caught);
        QVERIFY(ran.load() >= 1);
        QVERIFY(ran.load() <= 64);
    }

    void poolFullOrNested()
    {
        // Every pool thread busy running a frame of its own: nobody helps, and each still ends.
        QThreadPool* pool = QThreadPool::globalInstance();
        std::vector<QFuture<int>> frames;
        for (int t = 0; t < pool->maxThreadCount() + 2; ++t)
            frames.push_back(QtConcurrent::run(pool, [] {
                std::atomic<int> sum { 0 };
                runPaintWork(100, [&](std::size_t i) { sum.fetch_add(static_cast<int>(i)); });
                return sum.load();
            }));
        for (QFuture<int>& f : frames)
            QCOMPARE(f.result(), 4950);
    }
};

KS_TEST_MAIN(tst_paint_work, PaintWorkTest)
#include "tst_paint_work.moc"
