// ChunkedArray (core/common/): values by index across every chunk boundary of
// its doubling chunks, references that stay valid while it grows (what the
// pickle builder relies on), moves that leave the source empty, and the bytes
// it reports: what it holds, not the address space of its last chunk.
#include "core/common/chunked_array.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cstdint>
#include <vector>

using namespace ks::core;

class TestChunkedArray : public QObject
{
    Q_OBJECT

private slots:

    void valuesAcrossChunkBoundaries()
    {
        ChunkedArray<std::uint32_t> a;
        QVERIFY(a.empty());
        // Chunks hold 4096, 4096, 8192, 16384, ... elements: 300 k crosses seven boundaries.
        constexpr std::uint32_t kCount = 300000;
        for (std::uint32_t i = 0; i < kCount; ++i)
            a.push_back(i * 2654435761u);
        QCOMPARE(a.size(), std::size_t(kCount));
        for (const std::size_t i :
            { 0u, 4095u, 4096u, 8191u, 8192u, 16383u, 16384u, 32767u, 32768u, 299999u })
            QCOMPARE(a[i], static_cast<std::uint32_t>(i * 2654435761u));
        for (std::uint32_t i = 0; i < kCount; ++i)
            if (a[i] != i * 2654435761u)
                QFAIL(qPrintable(QStringLiteral("element %1 changed").arg(i)));
    }

    void referencesSurviveGrowth()
    {
        ChunkedArray<std::uint64_t> a;
        a.push_back(41);
        std::uint64_t& first = a[0];
        for (std::uint64_t i = 1; i < 100000; ++i)
            a.push_back(i);
        first += 1;
        QCOMPARE(a[0], std::uint64_t(42));
        a[99999] = 7;
        QCOMPARE(a[99999], std::uint64_t(7));
    }

    void appendAndMove()
    {
        ChunkedArray<std::int64_t> a;
        std::vector<std::int64_t> values(10000);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = -static_cast<std::int64_t>(i);
        a.append(values);
        ChunkedArray<std::int64_t> b(std::move(a));
        QCOMPARE(
            a.size(), std::size_t(0)); // NOLINT(bugprone-use-after-move): the moved-from state is the point
        QCOMPARE(b.size(), values.size());
        QCOMPARE(b[9999], std::int64_t(-9999));
        a.push_back(5); // a moved-from array is usable again
        QCOMPARE(a[0], std::int64_t(5));
        b = std::move(a);
        QCOMPARE(b.size(), std::size_t(1));
        QCOMPARE(b[0], std::int64_t(5));
    }

    void bytesAreWhatItHolds()
    {
        ChunkedArray<std::uint32_t> a;
        for (std::uint32_t i = 0; i < 5000; ++i)
            a.push_back(i);
        // 5000 elements span two chunks (8192 slots); only what is held counts.
        QVERIFY(a.bytes() >= 5000 * sizeof(std::uint32_t));
        QVERIFY(a.bytes() < 5000 * sizeof(std::uint32_t) + 1024);
    }
};

KS_TEST_MAIN(tst_chunked_array, TestChunkedArray)
#include "tst_chunked_array.moc"
