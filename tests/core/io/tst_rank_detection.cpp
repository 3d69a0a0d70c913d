// Rank of each file (product spec L2): distributedInfo.rank, else a number in
// the file name, else the file's position in name order; clashes and
// non-Kineto files reported, never dropped silently.

#include "core/io/store_builder/rank_detection.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QTest>

#include <algorithm>

using namespace ks::core;
using ks::test::toStd;
using ks::test::TraceDir;

class TestRankDetection : public QObject
{
    Q_OBJECT

private slots:
    void rankFromFileName_data();
    void rankFromFileName();
    void listTraceFiles();
    void ranksFromDistributedInfo();
    void ranksFromFileNames();
    void ranksFromOrder();
    void singleFileRank();
    void duplicateRanksKept();
    void nonKinetoJsonSkipped();
    void folderOfOnlyNonKinetoJsonIsNotSilent();
    void clockSkewReported();
    void severalPaths();
};

// moc reads raw string literals as ordinary strings and trips on the JSON
// inside them: fixtures and slot bodies are kept out of its sight.
#ifndef Q_MOC_RUN

namespace {

QByteArray traceWithRank(std::optional<int> rank, double firstTs = 1000)
{
    QByteArray info;
    if (rank)
        info = R"( "distributedInfo": {"backend": "nccl", "rank": )" + QByteArray::number(*rank)
            + R"(, "world_size": 4},)";
    return ks::test::kinetoDoc(R"({"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": )"
            + QByteArray::number(firstTs, 'f', 3) + R"(, "dur": 1})",
        info);
}

Result<TraceSet> loadFolder(const TraceDir& dir)
{
    return loadTraceSet({ toStd(dir.path()) }, {}, nullptr, nullptr);
}

std::string baseName(const std::string& path)
{
    return toStd(QFileInfo(QString::fromStdString(path)).fileName());
}

bool anyContains(const std::vector<std::string>& lines, const std::string& text)
{
    return std::any_of(
        lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != std::string::npos; });
}

} // namespace

void TestRankDetection::rankFromFileName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("rank"); // -1: none
    QTest::newRow("rank-3") << QStringLiteral("rank-3.json") << qint64(3);
    QTest::newRow("rank_3") << QStringLiteral("rank_3.json.gz") << qint64(3);
    QTest::newRow("rank3") << QStringLiteral("rank3.json") << qint64(3);
    QTest::newRow("RANK-12") << QStringLiteral("RANK-12.json") << qint64(12);
    QTest::newRow("Rank_5 mixed case") << QStringLiteral("job_Rank_5.pt.trace.json") << qint64(5);
    QTest::newRow("worker3") << QStringLiteral("worker3.json") << qint64(3);
    QTest::newRow("worker_7") << QStringLiteral("worker_7.json") << qint64(7);
    QTest::newRow("host-worker12") << QStringLiteral("host-worker12.pt.trace.json.gz") << qint64(12);
    QTest::newRow("no number") << QStringLiteral("trace.json") << qint64(-1);
    QTest::newRow("rank without digits") << QStringLiteral("ranking.json") << qint64(-1);
    QTest::newRow("digits without rank") << QStringLiteral("trace_42.json") << qint64(-1);
    QTest::newRow("mtia") << QStringLiteral("mtia_inference_rank_0.json.gz") << qint64(0);
    QTest::newRow("sampled") << QStringLiteral("sampled_rank-1.json.gz") << qint64(1);
    QTest::newRow("kineto name") << QStringLiteral("rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")
                                 << qint64(34);
    QTest::newRow("kineto name rank 0")
        << QStringLiteral("rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz") << qint64(0);
    QTest::newRow("leading zeros") << QStringLiteral("rank-007.json") << qint64(7);
    QTest::newRow("rank beats worker") << QStringLiteral("worker3_rank_5.json") << qint64(5);
    QTest::newRow("last match wins") << QStringLiteral("rank-1_rank-2.json") << qint64(2);
    QTest::newRow("only the file name counts") << QStringLiteral("/jobs/rank-9/trace.json") << qint64(-1);
    QTest::newRow("folder path with a file rank") << QStringLiteral("/jobs/rank-9/rank-4.json") << qint64(4);
}

void TestRankDetection::rankFromFileName()
{
    QFETCH(QString, name);
    QFETCH(qint64, rank);
    const auto r = ks::core::rankFromFileName(toStd(name));
    QCOMPARE(r.has_value(), rank >= 0);
    if (r)
        QCOMPARE(qint64(*r), rank);
}

void TestRankDetection::listTraceFiles()
{
    TraceDir dir;
    for (const char* name : { "b.json", "a.json.gz", "c.txt", ".hidden.json", "rank-1.json", "x.gz", "json" })
        dir.write(QLatin1String(name), "{}");
    QDir(dir.path()).mkdir(QStringLiteral("folder.json"));
    auto files = ks::core::listTraceFiles(toStd(dir.path()));
    QVERIFY(files.ok());
    std::vector<std::string> names;
    for (const auto& f : files.value())
        names.push_back(baseName(f));
    QCOMPARE(names, (std::vector<std::string> { "a.json.gz", "b.json", "rank-1.json", "x.gz" }));
    QVERIFY(!ks::core::listTraceFiles(toStd(dir.filePath(QStringLiteral("missing")))).ok());
}

void TestRankDetection::ranksFromDistributedInfo()
{
    TraceDir dir;
    dir.write(QStringLiteral("a.json"), traceWithRank(1));
    dir.write(QStringLiteral("b.json.gz"), ks::test::gzipMember(traceWithRank(0)));
    dir.write(QStringLiteral("rank-7.json"), traceWithRank(2)); // distributedInfo beats the name
    auto r = loadFolder(dir);
    QVERIFY(r.ok());
    const TraceSet& set = r.value();
    QCOMPARE(set.ranks.size(), std::size_t(3));
    const std::vector<std::string> expected { "b.json.gz", "a.json", "rank-7.json" };
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(set.ranks[i]->rank, std::int64_t(i));
        QCOMPARE(set.ranks[i]->rankSource, RankSource::DistributedInfo);
        QCOMPARE(baseName(set.ranks[i]->path), expected[i]);
    }
    QCOMPARE(set.folderDiagnostics.total(), 0ull);
    QVERIFY(set.failures.empty());
}

void TestRankDetection::ranksFromFileNames()
{
    TraceDir dir;
    dir.write(QStringLiteral("job_rank-10.json"), traceWithRank(std::nullopt));
    dir.write(QStringLiteral("job_rank-2.json"), traceWithRank(std::nullopt));
    dir.write(QStringLiteral("job_rank-1.json.gz"), ks::test::gzipMember(traceWithRank(std::nullopt)));
    auto r = loadFolder(dir);
    QVERIFY(r.ok());
    const TraceSet& set = r.value();
    QCOMPARE(set.ranks.size(), std::size_t(3));
    const std::vector<std::int64_t> ranks { 1, 2, 10 };
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(set.ranks[i]->rank, ranks[i]);
        QCOMPARE(set.ranks[i]->rankSource, RankSource::FileName);
    }
    QCOMPARE(set.folderDiagnostics.count(DiagnosticKind::RankFromFileName), 3ull);
    QCOMPARE(set.folderDiagnostics.count(DiagnosticKind::RankFromOrder), 0ull);
}

void TestRankDetection::ranksFromOrder()
{
    TraceDir dir;
    dir.write(QStringLiteral("gamma.json"), traceWithRank(std::nullopt));
    dir.write(QStringLiteral("alpha.json"), traceWithRank(std::nullopt));
    dir.write(QStringLiteral("beta.json.gz"), ks::test::gzipMember(traceWithRank(std::nullopt)));
    auto r = loadFolder(dir);
    QVERIFY(r.ok());
    const TraceSet& set = r.value();
    QCOMPARE(set.ranks.size(), std::size_t(3));
    const std::vector<std::string> expected { "alpha.json", "beta.json.gz", "gamma.json" };
    for (std::size_t i = 0; i < 3; ++i) {
        QCOMPARE(set.ranks[i]->rank, std::int64_t(i));
        QCOMPARE(set.ranks[i]->rankSource, RankSource::FileOrder);
        QCOMPARE(baseName(set.ranks[i]->path), expected[i]);
    }
    QCOMPARE(set.folderDiagnostics.count(DiagnosticKind::RankFromOrder), 3ull);
    QCOMPARE(set.folderDiagnostics.count(DiagnosticKind::DuplicateRank), 0ull);
}

void TestRankDetection::singleFileRank()
{
    TraceDir dir;
    auto byName = dir.load(QStringLiteral("worker_5.json"), traceWithRank(std::nullopt));
    QVERIFY(byName.ok());
    QCOMPARE(byName.value().rank, std::int64_t(5));
    QCOMPARE(byName.value().rankSource, RankSource::FileName);
    auto byInfo = dir.load(QStringLiteral("worker_6.json"), traceWithRank(3));
    QVERIFY(byInfo.ok());
    QCOMPARE(byInfo.value().rank, std::int64_t(3));
    QCOMPARE(byInfo.value().rankSource, RankSource::DistributedInfo);
    auto none = dir.load(QStringLiteral("trace.json"), traceWithRank(std::nullopt));
    QVERIFY(none.ok());
    QCOMPARE(none.value().rank, std::int64_t(0));
    QCOMPARE(none.value().rankSource, RankSource::FileOrder);
}

void TestRankDetection::duplicateRanksKept()
{
    TraceDir dir;
    dir.write(QStringLiteral("first.json"), traceWithRank(0));
    dir.write(QStringLiteral("second.json"), traceWithRank(0));
    dir.write(QStringLiteral("third.json"), traceWithRank(1));
    auto r = loadFolder(dir);
    QVERIFY(r.ok());
    const TraceSet& set = r.value();
    QCOMPARE(set.ranks.size(), std::size_t(3));
    QCOMPARE(set.ranks[0]->rank, std::int64_t(0));
    QCOMPARE(set.ranks[1]->rank, std::int64_t(0));
    QCOMPARE(set.ranks[2]->rank, std::int64_t(1));
    QCOMPARE(set.folderDiagnostics.count(DiagnosticKind::DuplicateRank), 1ull);
    const std::string& example = set.folderDiagnostics.entry(DiagnosticKind::DuplicateRank).example;
    QVERIFY2(
        example.find("first.json") != std::string::npos && example.find("second.json") != std::string::npos,
        example.c_str());
    QVERIFY(anyContains(set.notes, "second.json"));
}

void TestRankDetection::nonKinetoJsonSkipped()
{
    TraceDir dir;
    dir.write(QStringLiteral("rank-0.json"), traceWithRank(0));
    // A PyTorch execution trace: JSON, but no traceEvents.
    dir.write(QStringLiteral("rank-0.et.json"),
        R"({"schema": "1.0.1", "pid": 1, "time": "2024", "nodes": [{"id": 1}]})");
    auto r = loadFolder(dir);
    QVERIFY(r.ok());
    const TraceSet& set = r.value();
    QCOMPARE(set.ranks.size(), std::size_t(1));
    QVERIFY(set.failures.empty());
    QCOMPARE(set.folderDiagnostics.count(DiagnosticKind::SkippedFile), 1ull);
    QVERIFY(set.folderDiagnostics.entry(DiagnosticKind::SkippedFile).example.find("rank-0.et.json")
        != std::string::npos);
    QVERIFY(anyContains(set.notes, "rank-0.et.json"));
    QCOMPARE(set.folderDiagnostics.count(DiagnosticKind::DuplicateRank), 0ull);
}

void TestRankDetection::folderOfOnlyNonKinetoJsonIsNotSilent()
{
    TraceDir dir;
    dir.write(QStringLiteral("et.json"), R"({"schema": "1.0.1", "nodes": []})");
    auto r = loadFolder(dir);
    // Either an error, or an empty set that says why.
    if (r.ok()) {
        QVERIFY(r.value().ranks.empty());
        QVERIFY(!r.value().notes.empty());
        QCOMPARE(r.value().folderDiagnostics.count(DiagnosticKind::SkippedFile), 1ull);
    } else {
        QCOMPARE(errorCodeName(r.error().code), errorCodeName(ErrorCode::NoTraceEvents));
    }
}

void TestRankDetection::clockSkewReported()
{
    TraceDir dir;
    const double t0 = 1712195495000000.0;
    dir.write(QStringLiteral("rank-0.json"), traceWithRank(0, t0));
    dir.write(QStringLiteral("rank-1.json"), traceWithRank(1, t0 + 100)); // 100 µs: fine
    dir.write(QStringLiteral("rank-2.json"), traceWithRank(2, t0 + 5e6)); // 5 s late
    auto r = loadFolder(dir);
    QVERIFY(r.ok());
    const auto& d = r.value().folderDiagnostics;
    QCOMPARE(d.count(DiagnosticKind::ClockSkew), 1ull);
    QVERIFY(d.entry(DiagnosticKind::ClockSkew).example.find("rank 2") != std::string::npos);
}

void TestRankDetection::severalPaths()
{
    TraceDir a;
    TraceDir b;
    a.write(QStringLiteral("x.json"), traceWithRank(1));
    const QString single = b.write(QStringLiteral("y.json"), traceWithRank(0));
    auto r = loadTraceSet({ toStd(a.path()), toStd(single) }, {}, nullptr, nullptr);
    QVERIFY(r.ok());
    QCOMPARE(r.value().ranks.size(), std::size_t(2));
    QCOMPARE(r.value().ranks[0]->rank, std::int64_t(0));
    QCOMPARE(r.value().inputs.size(), std::size_t(2));
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_rank_detection, TestRankDetection)
#include "tst_rank_detection.moc"
