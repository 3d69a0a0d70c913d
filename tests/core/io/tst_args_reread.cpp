// Args are re-read from the file (core/io/json/args_reader.h), not kept in the
// store: every slice's and instant's args, re-read through the recorded offsets
// and inflate access points, must equal what an independent parse of the whole
// file (simdjson's DOM over the inflated text) finds at that element. And a file
// that changed, shrank, vanished or went corrupt after loading must say so
// (ErrorCode::FileChanged), never hand back another event's text.

#include "app/common/thread_pool_parallel_for.h"
#include "core/analysis/operators/operator_stats.h"
#include "core/io/store_builder/typed_args.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QDir>
#include <QTest>

#include <simdjson.h>
#include <zlib.h>

#include <filesystem>
#include <map>
#include <set>

using namespace ks::core;

namespace {

// The whole inflated JSON of a file (plain or gzip, one or more members), read with zlib.
std::string inflatedText(const std::string& path)
{
    std::string out;
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f)
        return out;
    std::vector<char> buffer(1 << 20);
    int n = 0;
    while ((n = gzread(f, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0)
        out.append(buffer.data(), static_cast<std::size_t>(n));
    gzclose(f);
    return out;
}

// Two parsed JSON values are the same: same types, keys in the same order,
// numbers equal as parsed (the DOM keeps no number text to compare).
bool sameValue(simdjson::dom::element a, simdjson::dom::element b)
{
    using Type = simdjson::dom::element_type;
    if (a.type() != b.type())
        return false;
    switch (a.type()) {
    case Type::OBJECT: {
        const simdjson::dom::object x = a, y = b;
        if (x.size() != y.size())
            return false;
        auto j = y.begin();
        for (auto i = x.begin(); i != x.end(); ++i, ++j)
            if (i.key() != j.key() || !sameValue(i.value(), j.value()))
                return false;
        return true;
    }
    case Type::ARRAY: {
        const simdjson::dom::array x = a, y = b;
        if (x.size() != y.size())
            return false;
        auto j = y.begin();
        for (auto i = x.begin(); i != x.end(); ++i, ++j)
            if (!sameValue(*i, *j))
                return false;
        return true;
    }
    case Type::STRING:
        return std::string_view(a) == std::string_view(b);
    case Type::INT64:
        return std::int64_t(a) == std::int64_t(b);
    case Type::UINT64:
        return std::uint64_t(a) == std::uint64_t(b);
    case Type::DOUBLE:
        return double(a) == double(b);
    case Type::BOOL:
        return bool(a) == bool(b);
    case Type::NULL_VALUE:
        return true;
    }
    return false;
}

// An independent parse of a whole file: traceEvents index -> its args object,
// for every element that has one.
class Oracle
{
public:
    explicit Oracle(const std::string& path)
        : m_text(inflatedText(path))
    {
        simdjson::dom::element doc;
        if (m_parser.parse(m_text).get(doc))
            return;
        simdjson::dom::array events;
        if (doc.get_array().get(events) && doc["traceEvents"].get_array().get(events))
            return;
        std::uint32_t index = 0;
        for (simdjson::dom::element e : events) {
            simdjson::dom::element args;
            if (e.is_object() && !e["args"].get(args) && args.is_object())
                m_args.emplace(index, args);
            ++index;
        }
    }

    bool empty() const { return m_args.empty(); }

    // The re-read text is the args of element `event`, or "" where it has none.
    bool matches(std::uint32_t event, std::string_view text) const
    {
        auto it = m_args.find(event);
        if (text.empty() || it == m_args.end())
            return text.empty() && it == m_args.end();
        simdjson::dom::parser parser;
        simdjson::dom::element parsed;
        return !parser.parse(text.data(), text.size()).get(parsed) && sameValue(parsed, it->second);
    }

private:
    std::string m_text;
    simdjson::dom::parser m_parser;
    std::map<std::uint32_t, simdjson::dom::element> m_args;
};

QStringList sharedTraceFiles()
{
    QStringList files;
    QDir dir(QStringLiteral(KS_SHARED_DIR "/traces"));
    for (const QString& sub : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        for (const QString& f :
            QDir(dir.filePath(sub))
                .entryList({ QStringLiteral("*.json"), QStringLiteral("*.json.gz") }, QDir::Files))
            files << dir.filePath(sub + QLatin1Char('/') + f);
    return files;
}

// Compares the re-read args of every slice and instant of `t` with the oracle;
// returns the number of args compared, or -1 after a failed QCOMPARE.
long compareAll(const RankTrace& t, const Oracle& oracle, QString& problem)
{
    std::vector<std::uint32_t> all(t.slices.size());
    for (std::uint32_t i = 0; i < all.size(); ++i)
        all[i] = i;
    std::uint32_t previousEvent = 0;
    long compared = 0;
    std::size_t withArgs = 0;
    for (std::uint32_t i = 0; i < t.slices.size(); ++i)
        withArgs += (t.slices.flags[i] & kSliceHasArgs) != 0;
    const auto error = forEachSliceArgs(t, all, [&](std::uint32_t slice, std::string_view text) {
        const std::uint32_t event = t.slices.eventIndex[slice];
        if (compared > 0 && event < previousEvent && problem.isEmpty())
            problem = QStringLiteral("visited out of file order");
        previousEvent = event;
        if (!oracle.matches(event, text) && problem.isEmpty())
            problem = QStringLiteral("slice %1 (event %2): %3")
                          .arg(slice)
                          .arg(event)
                          .arg(QString::fromStdString(std::string(text).substr(0, 200)));
        ++compared;
    });
    if (error)
        problem = QString::fromStdString(error->describe());
    if (static_cast<std::size_t>(compared) != withArgs && problem.isEmpty())
        problem = QStringLiteral("%1 slices visited, %2 have args").arg(compared).arg(withArgs);
    for (std::uint32_t row = 0; row < t.instants.size() && problem.isEmpty(); ++row) {
        auto text = instantArgs(t, row);
        if (!text)
            problem = QString::fromStdString(text.error().describe());
        else if (!oracle.matches(t.instants.eventIndex[row], text.value()))
            problem = QStringLiteral("instant %1 differs").arg(row);
        ++compared;
    }
    return compared;
}

Result<RankTrace> loadWith(const QString& path, bool zlib)
{
    LoadOptions options;
    options.preferZlib = zlib;
    return loadRankFile(ks::test::toStd(path), options, nullptr, nullptr);
}

} // namespace

class TestArgsReread : public QObject
{
    Q_OBJECT

private slots:
    void everySharedTrace_data();
    void everySharedTrace();
    void multiMemberGzipWithManyPoints_data();
    void multiMemberGzipWithManyPoints();
    void sliceArgsOneByOne();
    void changedFile_data();
    void changedFile();
    void corruptGzipFoundOnlyWhenReReading();
    void inputShapesOfAChangedFileAreRefused();
    void keptArgsEqualReReadOnes_data();
    void keptArgsEqualReReadOnes();
    void keptArgsNeedNoFile();
};

void TestArgsReread::everySharedTrace_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("zlib");
    const QStringList files = sharedTraceFiles();
    QVERIFY(files.size() >= 15);
    for (const QString& f : files) {
        const QString name = QFileInfo(f).dir().dirName() + u'/' + QFileInfo(f).fileName();
        QTest::newRow(qPrintable(name + QStringLiteral(" auto"))) << f << false;
        if (f.endsWith(QStringLiteral(".gz")))
            QTest::newRow(qPrintable(name + QStringLiteral(" zlib"))) << f << true;
    }
}

void TestArgsReread::everySharedTrace()
{
    QFETCH(QString, path);
    QFETCH(bool, zlib);
    auto loaded = loadWith(path, zlib);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().describe().c_str());
    const RankTrace& t = loaded.value();
    const Oracle oracle(ks::test::toStd(path));
    QVERIFY(!oracle.empty());
    QString problem;
    const long compared = compareAll(t, oracle, problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(compared > 0);
    // A file over kPointSpacing of JSON has access points, each at least that far apart.
    if (t.counts.gzip && t.counts.jsonBytes > 2 * ArgsIndex::kPointSpacing)
        QVERIFY(t.args.points.size() >= 1);
    for (std::size_t k = 1; k < t.args.points.size(); ++k)
        QVERIFY(t.args.points[k].jsonOffset >= t.args.points[k - 1].jsonOffset + ArgsIndex::kPointSpacing);
}

void TestArgsReread::multiMemberGzipWithManyPoints_data()
{
    QTest::addColumn<bool>("zlib");
    QTest::newRow("auto") << false;
    QTest::newRow("zlib") << true;
}

// 35 MB of real JSON in three gzip members: access points in every member,
// and members that start between two points.
void TestArgsReread::multiMemberGzipWithManyPoints()
{
    QFETCH(bool, zlib);
    const std::string source = KS_SHARED_DIR "/traces/diff_control/control.json.gz";
    const std::string text = inflatedText(source);
    QVERIFY(text.size() > 30'000'000);
    const QByteArray json(text.data(), static_cast<qsizetype>(text.size()));
    ks::test::TraceDir dir;
    const QString path = dir.write(QStringLiteral("members.json.gz"),
        ks::test::gzipMembers(json, { json.size() / 3 + 12345, json.size() * 2 / 3 - 777 }));
    auto loaded = loadWith(path, zlib);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().describe().c_str());
    const RankTrace& t = loaded.value();
    QVERIFY(t.args.points.size() >= 6);
    QString problem;
    QVERIFY(compareAll(t, Oracle(ks::test::toStd(path)), problem) > 0);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

// One slice at a time, as the Details panel asks: each call opens the file on its own.
void TestArgsReread::sliceArgsOneByOne()
{
    const QString path = QStringLiteral(KS_SHARED_DIR "/traces/diff_test/test.json.gz");
    auto loaded = loadWith(path, false);
    QVERIFY(loaded.ok());
    const RankTrace& t = loaded.value();
    const Oracle oracle(ks::test::toStd(path));
    int checked = 0;
    for (std::uint32_t s = t.slices.size() - 1; s > 0 && checked < 40;
         s -= std::max<std::uint32_t>(1, t.slices.size() / 40)) {
        auto text = sliceArgs(t, s);
        QVERIFY2(text.ok(), text.ok() ? "" : text.error().describe().c_str());
        QVERIFY(oracle.matches(t.slices.eventIndex[s], text.value()));
        ++checked;
    }
    QVERIFY(checked >= 20);
}

void TestArgsReread::changedFile_data()
{
    QTest::addColumn<bool>("gzip");
    QTest::addColumn<QString>("change");
    for (bool gz : { false, true })
        for (const char* change :
            { "truncated", "replaced same size", "deleted", "events shifted", "renamed in place, time kept" })
            QTest::newRow(qPrintable(QString::fromLatin1(change) + (gz ? QStringLiteral(" gz") : QString())))
                << gz << QString::fromLatin1(change);
}

void TestArgsReread::changedFile()
{
    QFETCH(bool, gzip);
    QFETCH(QString, change);
    const QByteArray json = ks::test::kinetoDoc(
        R"({"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 10, "dur": 5, "args": {"k": 1}},
           {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"k": 2}})");
    ks::test::TraceDir dir;
    const QString name = gzip ? QStringLiteral("t.json.gz") : QStringLiteral("t.json");
    const QString path = dir.write(name, gzip ? ks::test::gzipMember(json) : json);
    auto loaded = loadRankFile(ks::test::toStd(path), {}, nullptr, nullptr);
    QVERIFY(loaded.ok());
    const RankTrace& t = loaded.value();
    const std::uint32_t b = ks::test::slicesNamed(t, "b").front();
    QCOMPARE(sliceArgs(t, b).value(), std::string(R"({"k": 2})"));

    QByteArray changed = json;
    if (change == QStringLiteral("truncated")) {
        changed = json.left(json.size() / 2);
    } else if (change == QStringLiteral("replaced same size")) {
        changed.replace("\"k\": 2", "\"k\": 3"); // same length: only the content tells
    } else if (change == QStringLiteral("renamed in place, time kept")) {
        changed.replace("\"name\": \"b\"", "\"name\": \"c\""); // only the event check can tell
    } else if (change == QStringLiteral("events shifted")) {
        changed.replace("\"name\": \"a\"", "\"name\": \"aa\"");
    }
    const auto loadedTime = std::filesystem::last_write_time(ks::test::toStd(path));
    if (change == QStringLiteral("deleted"))
        QVERIFY(QFile::remove(path));
    else
        QVERIFY(ks::test::writeFile(path, gzip ? ks::test::gzipMember(changed) : changed));
    if (change
        == QStringLiteral("replaced same size")) // same size, same second: only the time or bytes differ
        std::filesystem::last_write_time(ks::test::toStd(path),
            std::filesystem::last_write_time(ks::test::toStd(path)) + std::chrono::seconds(1));
    if (change == QStringLiteral("renamed in place, time kept"))
        std::filesystem::last_write_time(ks::test::toStd(path), loadedTime);
    auto again = sliceArgs(t, b);
    QVERIFY(!again.ok());
    QCOMPARE(errorCodeName(again.error().code), errorCodeName(ErrorCode::FileChanged));
    QVERIFY2(again.error().describe().find("the file changed since it was opened") != std::string::npos,
        again.error().describe().c_str());
    QVERIFY(again.error().describe().find(ks::test::toStd(path)) != std::string::npos);
    QCOMPARE(rereadExternalId(t, b), std::int64_t(-1)); // no text from another version of the file
}

// Damage inside the compressed data, at the same size and time as loaded (a
// disk error, or a copy that changed bytes in place): found only when the
// access point's stretch is inflated again.
void TestArgsReread::corruptGzipFoundOnlyWhenReReading()
{
    const std::string text = inflatedText(KS_SHARED_DIR "/traces/diff_test/test.json.gz");
    const QByteArray json(text.data(), static_cast<qsizetype>(text.size()));
    ks::test::TraceDir dir;
    const QByteArray gz = ks::test::gzipMember(json);
    const QString path = dir.write(QStringLiteral("c.json.gz"), gz);
    const auto before = std::filesystem::last_write_time(ks::test::toStd(path));
    auto loaded = loadRankFile(ks::test::toStd(path), {}, nullptr, nullptr);
    QVERIFY(loaded.ok());
    const RankTrace& t = loaded.value();
    const std::uint32_t last = t.slices.size() - 1;
    std::uint32_t probe = last;
    while (probe > 0 && !(t.slices.flags[probe] & kSliceHasArgs))
        --probe;
    QVERIFY(sliceArgs(t, probe).ok());
    QByteArray damaged = gz;
    for (qsizetype i = gz.size() * 9 / 10; i < gz.size() * 9 / 10 + 64; ++i)
        damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
    QVERIFY(ks::test::writeFile(path, damaged));
    std::filesystem::last_write_time(ks::test::toStd(path), before);
    auto again = sliceArgs(t, probe);
    // Either the inflate fails or the element found is not the event: both say the file changed.
    if (again.ok()) {
        // The damage may fall before the slice's access point but after its element: then the text is right.
        QVERIFY(Oracle(KS_SHARED_DIR "/traces/diff_test/test.json.gz")
                    .matches(t.slices.eventIndex[probe], again.value()));
    } else {
        QCOMPARE(errorCodeName(again.error().code), errorCodeName(ErrorCode::FileChanged));
    }
    // Every slice: none may come back with wrong text, and the damaged stretch must fail.
    QString problem;
    compareAll(t, Oracle(KS_SHARED_DIR "/traces/diff_test/test.json.gz"), problem);
    QVERIFY2(problem.contains(QStringLiteral("the file changed since it was opened")), qPrintable(problem));
}

// operator-stats by input shape re-reads every operator's args: a changed file
// makes it refuse (one error) instead of grouping by shapes it could not read.
void TestArgsReread::inputShapesOfAChangedFileAreRefused()
{
    const QByteArray json = ks::test::kinetoDoc(
        R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
            "args": {"Input Dims": [[2, 3], [3, 4]]}},
           {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 20, "dur": 5,
            "args": {"Input Dims": [[5, 6], [6, 7]]}})");
    ks::test::TraceDir dir;
    const QString path = dir.write(QStringLiteral("ops.json"), json);
    auto set = loadTraceSet({ ks::test::toStd(path) }, {}, nullptr, nullptr);
    QVERIFY(set.ok());
    OperatorStatsOptions options;
    options.by = OperatorGrouping::Shapes;
    const OperatorStats before = operatorStats(set.value(), options);
    QVERIFY(!before.error);
    QCOMPARE(before.rows.size(), std::size_t(2));
    QVERIFY(ks::test::writeFile(path, json + " "));
    const OperatorStats after = operatorStats(set.value(), options);
    QVERIFY(after.error.has_value());
    QCOMPARE(errorCodeName(after.error->code), errorCodeName(ErrorCode::FileChanged));
}

void TestArgsReread::keptArgsEqualReReadOnes_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("parallel");
    for (const QString& f : sharedTraceFiles()) {
        const QString name = QFileInfo(f).dir().dirName() + u'/' + QFileInfo(f).fileName();
        QTest::newRow(qPrintable(name)) << f << false;
    }
    // Parse workers hand the builder decoded batches: the args text must survive them.
    QTest::newRow("diff_control, parse workers")
        << QStringLiteral(KS_SHARED_DIR "/traces/diff_control/control.json.gz") << true;
}

// LoadOptions::keepArgsOf (summarize keeps the modelled ops' args): the kept text
// of a kept slice is what re-reading the file gives, slices not kept are still
// re-read, and forEachSliceArgs visits both in one file order.
void TestArgsReread::keptArgsEqualReReadOnes()
{
    QFETCH(QString, path);
    QFETCH(bool, parallel);
    LoadOptions options;
    // About half the names: every other character count, so kept and re-read slices interleave.
    std::size_t asked = 0;
    options.keepArgsOf = [&asked](std::string_view name) {
        ++asked;
        return name.size() % 2 == 0;
    };
    if (parallel) {
        options.background = [] { return ks::app::makeThreadBackgroundWork(); };
        options.parseWorkers = 2;
        options.chunkBytes = 64u << 10;
    }
    auto loaded = loadRankFile(ks::test::toStd(path), options, nullptr, nullptr);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().describe().c_str());
    const RankTrace& t = loaded.value();
    std::size_t keptSlices = 0;
    std::size_t argsSlices = 0;
    std::set<std::string_view> names;
    for (std::uint32_t s = 0; s < t.slices.size(); ++s) {
        names.insert(t.sliceName(s));
        if (!(t.slices.flags[s] & kSliceHasArgs))
            continue;
        ++argsSlices;
        const bool kept = t.keptArgs.find(t.slices.eventIndex[s]).has_value();
        QCOMPARE(kept, t.sliceName(s).size() % 2 == 0);
        keptSlices += kept;
    }
    QVERIFY(asked <= names.size() + 1); // once per distinct name, not per event
    QCOMPARE(t.keptArgs.size(), keptSlices);
    QVERIFY(keptSlices > 0 || argsSlices == 0);
    QString problem;
    QVERIFY(compareAll(t, Oracle(ks::test::toStd(path)), problem) > 0);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

// Kept args are read from the store: the file may be gone, and the slices not
// kept still say that it changed.
void TestArgsReread::keptArgsNeedNoFile()
{
    const QByteArray json = ks::test::kinetoDoc(
        R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
            "args": {"Input Dims": [[2, 3], [3, 4]]}},
           {"ph": "X", "cat": "cpu_op", "name": "other", "pid": 1, "tid": 1, "ts": 20, "dur": 5,
            "args": {"k": 1}},
           {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 30, "dur": 5,
            "args": 7})");
    ks::test::TraceDir dir;
    LoadOptions options;
    options.keepArgsOf = [](std::string_view name) { return name == "aten::mm"; };
    auto loaded = dir.load(QStringLiteral("k.json"), json, options);
    QVERIFY(loaded.ok());
    const RankTrace& t = loaded.value();
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("k.json"))));
    const std::vector<std::uint32_t> mm = ks::test::slicesNamed(t, "aten::mm");
    QCOMPARE(mm.size(), std::size_t(2));
    QCOMPARE(sliceArgs(t, mm[0]).value(), std::string(R"({"Input Dims": [[2, 3], [3, 4]]})"));
    QCOMPARE(sliceArgs(t, mm[1]).value(), std::string()); // an args value that is no object: no args
    std::vector<std::string> visited;
    QVERIFY(
        !forEachSliceArgs(t, mm, [&](std::uint32_t, std::string_view text) { visited.emplace_back(text); }));
    QCOMPARE(
        visited, std::vector<std::string> { R"({"Input Dims": [[2, 3], [3, 4]]})" }); // only slices with args
    auto other = sliceArgs(t, ks::test::slicesNamed(t, "other").front());
    QVERIFY(!other.ok());
    QCOMPARE(errorCodeName(other.error().code), errorCodeName(ErrorCode::FileChanged));
}

KS_TEST_MAIN(tst_args_reread, TestArgsReread)
#include "tst_args_reread.moc"
