// The restricted unpickler (core/io/pickle/): what a snapshot uses decodes,
// everything that could run code or exhaust the machine is refused with one
// line naming the file, and no input crashes it (every prefix of a real
// snapshot, hostile shapes, absurd lengths and indices).

#include "core/io/pickle/pickle_reader.h"
#include "tests/support/pickle_writer.h"
#include "tests/support/test_main.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ks::core;
using ks::test::Py;

class TestPickleReader : public QObject
{
    Q_OBJECT

private slots:
    void scalars();
    void containersAndMemo();
    void sharedValuesAreStoredOnce();
    void codeOpcodesAreRefused_data();
    void codeOpcodesAreRefused();
    void notAPickle_data();
    void notAPickle();
    void protocols();
    void truncatedSnapshotsFailCleanly();
    void depthIsBounded();
    void memoryIsBounded();
    void cyclesAreRefused();
    void memoAbuse();
    void wideIntegers();
    void sharedSnapshotsDecode();
    void largeFileReadPastReleasedPages();
    void missingFile();
};

namespace {

const std::string kPath = "test.pickle";

// Bytes of a literal, NULs included.
template <std::size_t N>
std::string raw(const char (&text)[N])
{
    return std::string(text, N - 1);
}

template <std::size_t N>
QByteArray rawBytes(const char (&text)[N])
{
    return QByteArray(text, static_cast<qsizetype>(N - 1));
}

Result<PickleDocument> decode(const std::string& bytes, const PickleLimits& limits = {})
{
    return readPickle(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), kPath, limits);
}

QString errorOf(const std::string& bytes, const PickleLimits& limits = {})
{
    auto doc = decode(bytes, limits);
    if (doc)
        return QString();
    return QString::fromStdString(doc.error().describe());
}

// The checks every error line passes: one line, the file named.
void checkErrorLine(const QString& line)
{
    QVERIFY2(!line.isEmpty(), "expected an error");
    QVERIFY2(line.startsWith(QString::fromStdString(kPath)), qPrintable(line));
    QVERIFY2(!line.contains(u'\n'), qPrintable(line));
}

QString sharedSnapshot(const char* name)
{
    return QStringLiteral(KS_SHARED_DIR "/snapshots/") + QString::fromLatin1(name);
}

std::string readFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

} // namespace

void TestPickleReader::scalars()
{
    const Py value =
        Py::list({ Py::none(), Py::boolean(true), Py::boolean(false), Py::integer(7), Py::integer(-5),
            Py::integer(70000), Py::integer(131005944113664), Py::integer(-(std::int64_t(1) << 62)),
            Py::real(2.5), Py::str("héllo"), Py::str(std::string(300, 'x')) });
    auto doc = decode(ks::test::pickleOf(value));
    QVERIFY2(doc, doc ? "" : doc.error().describe().c_str());
    const PickleDocument& d = doc.value();
    const PickleValue root = d.root();
    QCOMPARE(root.kind(), PickleKind::List);
    QCOMPARE(d.containerSize(root), 11u);
    QVERIFY(d.item(root, 0).isNone());
    QVERIFY(d.asBool(d.item(root, 1)));
    QVERIFY(!d.asBool(d.item(root, 2)));
    QCOMPARE(d.asInt(d.item(root, 3)).value(), 7);
    QCOMPARE(d.asInt(d.item(root, 4)).value(), -5);
    QCOMPARE(d.asInt(d.item(root, 5)).value(), 70000);
    QCOMPARE(d.asInt(d.item(root, 6)).value(), std::int64_t(131005944113664));
    QCOMPARE(d.asInt(d.item(root, 7)).value(), -(std::int64_t(1) << 62)); // wider than the inline form
    QCOMPARE(d.asNumber(d.item(root, 8)).value(), 2.5);
    QCOMPARE(std::string(d.asString(d.item(root, 9))), std::string("héllo"));
    QCOMPARE(d.asString(d.item(root, 10)).size(), std::size_t(300));
    QVERIFY(!d.asInt(d.item(root, 9)).has_value());
}

void TestPickleReader::containersAndMemo()
{
    const Py value = Py::dict({ { "a", Py::tuple({ Py::integer(1), Py::integer(2) }) },
        { "b", Py::dict({ { "c", Py::list({}) } }) }, { "a", Py::integer(3) } });
    auto doc = decode(ks::test::pickleOf(value));
    QVERIFY(doc);
    const PickleDocument& d = doc.value();
    QCOMPARE(d.pairCount(d.root()), 3u);
    QCOMPARE(d.asInt(*d.find(d.root(), "a")).value(), 3); // the last duplicate key wins, as in Python
    const PickleValue b = *d.find(d.root(), "b");
    QCOMPARE(d.depth(d.root()), std::uint16_t(3));
    QCOMPARE(d.find(b, "c")->kind(), PickleKind::List);
    QVERIFY(!d.find(d.root(), "zz").has_value());
    QCOMPARE(d.item(d.key(d.root(), 0), 0).kind(), PickleKind::None); // a scalar has no items
}

void TestPickleReader::sharedValuesAreStoredOnce()
{
    // [frames, frames] with frames memoized: ] MEMOIZE ( ... e  then BINGET 0.
    const std::string bytes = raw("\x80\x04]\x94(]\x94(K\x01K\x02"
                                  "eh\x01"
                                  "e.");
    auto doc = decode(bytes);
    QVERIFY2(doc, doc ? "" : doc.error().describe().c_str());
    const PickleDocument& d = doc.value();
    QCOMPARE(d.containerSize(d.root()), 2u);
    QCOMPARE(d.item(d.root(), 0), d.item(d.root(), 1)); // the same container, not a copy
    QCOMPARE(d.itemCount(), std::uint64_t(4));
}

void TestPickleReader::codeOpcodesAreRefused_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("opcode");
    QTest::newRow("GLOBAL") << rawBytes("\x80\x02"
                                        "cos\nsystem\n(S'true'\ntR.")
                            << QStringLiteral("GLOBAL");
    QTest::newRow("STACK_GLOBAL") << rawBytes("\x80\x04\x8c\x02os\x8c\x06system\x93.")
                                  << QStringLiteral("STACK_GLOBAL");
    QTest::newRow("REDUCE") << rawBytes("\x80\x04)))R.") << QStringLiteral("REDUCE");
    QTest::newRow("BUILD") << rawBytes("\x80\x04}}b.") << QStringLiteral("BUILD");
    QTest::newRow("INST") << rawBytes("\x80\x02(ios\nsystem\n.") << QStringLiteral("INST");
    QTest::newRow("OBJ") << rawBytes("\x80\x02()o.") << QStringLiteral("OBJ");
    QTest::newRow("NEWOBJ") << rawBytes("\x80\x02))\x81.") << QStringLiteral("NEWOBJ");
    QTest::newRow("NEWOBJ_EX") << rawBytes("\x80\x04)))\x92.") << QStringLiteral("NEWOBJ_EX");
    QTest::newRow("EXT1") << rawBytes("\x80\x02\x82\x01.") << QStringLiteral("EXT1");
    QTest::newRow("PERSID") << rawBytes("\x80\x02Pid\n.") << QStringLiteral("PERSID");
    QTest::newRow("BINPERSID") << rawBytes("\x80\x02NQ.") << QStringLiteral("BINPERSID");
    QTest::newRow("NEXT_BUFFER") << rawBytes("\x80\x05\x97.") << QStringLiteral("NEXT_BUFFER");
    QTest::newRow("a set") << rawBytes("\x80\x04\x8f.") << QStringLiteral("EMPTY_SET");
    QTest::newRow("text INT") << rawBytes("\x80\x02I1\n.") << QStringLiteral("INT");
}

void TestPickleReader::codeOpcodesAreRefused()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, opcode);
    const QString line = errorOf(bytes.toStdString());
    checkErrorLine(line);
    QVERIFY2(line.contains(QStringLiteral("opcode ") + opcode + u' '), qPrintable(line));
    if (opcode != QStringLiteral("EMPTY_SET") && opcode != QStringLiteral("INT"))
        QVERIFY2(line.contains(QStringLiteral("nothing was run")), qPrintable(line));
    QVERIFY2(line.contains(QStringLiteral("(at byte ")), qPrintable(line));
}

void TestPickleReader::notAPickle_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("empty");
    QTest::newRow("json") << QByteArray("{\"traceEvents\": []}") << QStringLiteral("looks like JSON");
    QTest::newRow("gzip") << rawBytes("\x1f\x8b\x08\x00") << QStringLiteral("gzip");
    QTest::newRow("protocol 0") << QByteArray("(lp0\n.") << QStringLiteral("protocol 0 or 1");
    QTest::newRow("text") << QByteArray("\x01hello") << QStringLiteral("not a pickle");
    QTest::newRow("bad opcode") << rawBytes("\x80\x04\xff.") << QStringLiteral("not a pickle opcode");
}

void TestPickleReader::notAPickle()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    const QString line = errorOf(bytes.toStdString());
    checkErrorLine(line);
    QVERIFY2(line.contains(expected), qPrintable(line));
}

void TestPickleReader::protocols()
{
    for (int protocol = 2; protocol <= 5; ++protocol) {
        std::string bytes = "\x80";
        bytes += static_cast<char>(protocol);
        bytes += "K\x05.";
        QVERIFY2(decode(bytes), qPrintable(QString::number(protocol)));
    }
    const QString newer = errorOf(raw("\x80\x06K\x05."));
    checkErrorLine(newer);
    QVERIFY2(newer.contains(QStringLiteral("protocol 6 is newer")), qPrintable(newer));
    const QString older = errorOf(raw("\x80\x01K\x05."));
    QVERIFY2(older.contains(QStringLiteral("protocol 1")), qPrintable(older));
    // FRAME announcing more than is left.
    const QString frame = errorOf(raw("\x80\x04\x95\xff\x00\x00\x00\x00\x00\x00\x00K\x01."));
    QVERIFY2(frame.contains(QStringLiteral("truncated")), qPrintable(frame));
}

void TestPickleReader::truncatedSnapshotsFailCleanly()
{
    const std::string whole = readFile(sharedSnapshot("hpc_octree_snapshot_event/my_snapshot.pickle"));
    if (whole.empty())
        QSKIP("../shared/snapshots is absent: no real snapshot to cut");
    QVERIFY(decode(whole));
    // Every cut in the first 4 KiB, then every 997th byte: each is one error line.
    for (std::size_t cut = 1; cut < whole.size(); cut += cut < 4096 ? 1 : 997) {
        const QString line = errorOf(whole.substr(0, cut));
        checkErrorLine(line);
        QVERIFY2(line.contains(QStringLiteral("truncated")), qPrintable(QString::number(cut) + u' ' + line));
    }
    // A byte flipped anywhere: an error or a document, never a crash.
    for (std::size_t at = 2; at < whole.size(); at += 1231) {
        std::string flipped = whole;
        flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
        auto doc = decode(flipped);
        if (!doc)
            checkErrorLine(QString::fromStdString(doc.error().describe()));
    }
}

void TestPickleReader::depthIsBounded()
{
    // 200 lists, each appended into the one before it (the stack holds them all).
    std::string bytes = "\x80\x04";
    for (int i = 0; i < 200; ++i)
        bytes += ']';
    for (int i = 0; i < 199; ++i)
        bytes += 'a';
    bytes += '.';
    const QString line = errorOf(bytes);
    checkErrorLine(line);
    QVERIFY2(line.contains(QStringLiteral("nested deeper than 64")), qPrintable(line));
    PickleLimits generous;
    generous.maxDepth = 500;
    QVERIFY(decode(bytes, generous));
}

void TestPickleReader::memoryIsBounded()
{
    // A million empty lists in one list: 16 MB of containers from 1 MB.
    std::string bytes = "\x80\x04](";
    bytes.append(1'000'000, ']');
    bytes += "e.";
    PickleLimits tight;
    tight.maxBytes = 4 << 20;
    const QString line = errorOf(bytes, tight);
    checkErrorLine(line);
    QVERIFY2(line.contains(QStringLiteral("more than 4 MiB")), qPrintable(line));
    QCOMPARE(decode(bytes, tight).error().code, ErrorCode::TooLarge);
    QVERIFY(decode(bytes)); // the default budget (4 x the input + 64 MiB) holds it
    // The stack is bounded too: DUP a value many times.
    std::string dups = "\x80\x04N";
    dups.append(100'000, '2');
    dups += '.';
    PickleLimits smallStack;
    smallStack.maxStack = 1000;
    QVERIFY2(
        errorOf(dups, smallStack).contains(QStringLiteral("stack")), qPrintable(errorOf(dups, smallStack)));
    // A string whose length runs past the file.
    const QString longString = errorOf(raw("\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7f."));
    QVERIFY2(longString.contains(QStringLiteral("truncated")), qPrintable(longString));
}

void TestPickleReader::cyclesAreRefused()
{
    // l = []; l.append(l)
    const QString self = errorOf(raw("\x80\x04]\x94h\x00"
                                     "a."));
    checkErrorLine(self);
    QVERIFY2(self.contains(QStringLiteral("holds itself")), qPrintable(self));
    // a = []; b = [a]; a.append(b): a is modified after it was placed in b.
    const QString later = errorOf(raw("\x80\x04]\x94]h\x00"
                                      "ah\x00"
                                      "\x8c\x01xa."));
    checkErrorLine(later);
    QVERIFY2(later.contains(QStringLiteral("changed after it was placed")), qPrintable(later));
    // A list as a dict key is unhashable.
    const QString key = errorOf(raw("\x80\x04}]Ns."));
    QVERIFY2(key.contains(QStringLiteral("dict key of type list")), qPrintable(key));
}

void TestPickleReader::memoAbuse()
{
    const QString undefined = errorOf(raw("\x80\x04h\x05."));
    checkErrorLine(undefined);
    QVERIFY2(undefined.contains(QStringLiteral("memo entry 5")), qPrintable(undefined));
    // LONG_BINPUT at index 4e9: one sparse entry, not a 32 GB table.
    auto far = decode(raw("\x80\x04K\x07r\x00\x28\x6b\xeej\x00\x28\x6b\xee"
                          "0."));
    QVERIFY2(far, far ? "" : far.error().describe().c_str());
    QCOMPARE(far.value().asInt(far.value().root()).value(), 7);
    const QString noMark = errorOf(raw("\x80\x04]K\x01"
                                       "e."));
    QVERIFY2(noMark.contains(QStringLiteral("APPENDS without a MARK")), qPrintable(noMark));
    const QString noStop = errorOf(raw("\x80\x04K\x01"));
    QVERIFY2(noStop.contains(QStringLiteral("without its STOP")), qPrintable(noStop));
    const QString emptyStop = errorOf(raw("\x80\x04."));
    QVERIFY2(emptyStop.contains(QStringLiteral("STOP with nothing")), qPrintable(emptyStop));
}

void TestPickleReader::wideIntegers()
{
    // LONG1 of 9 bytes: 2^64 - 1 does not fit; -1 sign-extended over 9 bytes does.
    const QString tooWide = errorOf(raw("\x80\x04\x8a\x09\xff\xff\xff\xff\xff\xff\xff\xff\x00."));
    QVERIFY2(tooWide.contains(QStringLiteral("wider than 64 bits")), qPrintable(tooWide));
    auto minusOne = decode(raw("\x80\x04\x8a\x09\xff\xff\xff\xff\xff\xff\xff\xff\xff."));
    QVERIFY(minusOne);
    QCOMPARE(minusOne.value().asInt(minusOne.value().root()).value(), -1);
    auto zero = decode(raw("\x80\x04\x8a\x00."));
    QCOMPARE(zero.value().asInt(zero.value().root()).value(), 0);
    auto negative = decode(raw("\x80\x04\x8a\x02\x00\x80.")); // -32768
    QCOMPARE(negative.value().asInt(negative.value().root()).value(), -32768);
}

void TestPickleReader::sharedSnapshotsDecode()
{
    for (const char* name : { "hpc_octree_snapshot_event/my_snapshot.pickle",
             "silmont_fwd_fp32_annotations/memory_forward_fp32_128.pickle" }) {
        const QString path = sharedSnapshot(name);
        if (!QFile::exists(path))
            QSKIP("../shared/snapshots is absent");
        auto doc = readPickleFile(path.toStdString());
        QVERIFY2(doc, doc ? "" : doc.error().describe().c_str());
        const PickleDocument& d = doc.value();
        QCOMPARE(d.root().kind(), PickleKind::Dict);
        for (const char* key : { "segments", "device_traces", "allocator_settings", "external_annotations" })
            QVERIFY2(d.find(d.root(), key).has_value(), key);
        // A snapshot is shallow; the document stays within a few times the file.
        QVERIFY(d.depth(d.root()) < 10);
        QVERIFY(d.bytes() < 4 * static_cast<std::uint64_t>(QFile(path).size()));
    }
}

// readPickleFile maps the file and gives back the pages it has passed every
// 8 MiB: a 30 MB pickle of distinct strings must read whole, every string
// intact (copied before its page went), the first and the last alike.
void TestPickleReader::largeFileReadPastReleasedPages()
{
    auto textOf = [](int i) { return "frame_" + std::to_string(i) + std::string(60, char('a' + i % 26)); };
    constexpr int kCount = 400000;
    std::vector<Py> items;
    items.reserve(kCount);
    for (int i = 0; i < kCount; ++i)
        items.push_back(Py::dict({ { "name", Py::str(textOf(i)) }, { "line", Py::integer(i) } }));
    const std::string bytes = ks::test::pickleOf(Py::list(std::move(items)));
    QVERIFY(bytes.size() > 3 * (std::size_t(8) << 20));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.pickle"));
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    QCOMPARE(out.write(bytes.data(), static_cast<qint64>(bytes.size())), static_cast<qint64>(bytes.size()));
    out.close();
    auto doc = readPickleFile(path.toStdString());
    QVERIFY2(doc, doc ? "" : doc.error().describe().c_str());
    const PickleDocument& d = doc.value();
    QCOMPARE(d.containerSize(d.root()), std::uint32_t(kCount));
    for (const int i : { 0, 1, kCount / 2, kCount - 2, kCount - 1 }) {
        const PickleValue entry = d.item(d.root(), static_cast<std::uint32_t>(i));
        QCOMPARE(d.asString(*d.find(entry, "name")), std::string_view(textOf(i)));
        QCOMPARE(*d.asInt(*d.find(entry, "line")), std::int64_t(i));
    }
    for (int i = 0; i < kCount; ++i)
        if (d.asString(d.value(d.item(d.root(), static_cast<std::uint32_t>(i)), 0)) != textOf(i))
            QFAIL(qPrintable(QStringLiteral("string %1 differs").arg(i)));
}

void TestPickleReader::missingFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("absent.pickle")).toStdString();
    auto doc = readPickleFile(path);
    QVERIFY(!doc);
    QVERIFY(QString::fromStdString(doc.error().describe()).startsWith(QString::fromStdString(path)));
    auto folder = readPickleFile(dir.path().toStdString());
    QVERIFY(!folder);
}

KS_TEST_MAIN(tst_pickle_reader, TestPickleReader)
#include "tst_pickle_reader.moc"
