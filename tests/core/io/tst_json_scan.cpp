// The byte-level scanner that cuts the inflated stream at value boundaries:
// it must find the end of a value whatever strings contain, and say NeedMore
// (never a wrong end) when the value is cut by a buffer boundary.

#include "core/io/json/json_scan.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <random>
#include <string>
#include <string_view>

namespace json = ks::core::json;
using json::ScanStatus;

Q_DECLARE_METATYPE(json::ScanStatus)

class TestJsonScan : public QObject
{
    Q_OBJECT

private slots:
    void scanValue_data();
    void scanValue();
    void prefixesNeedMore_data();
    void prefixesNeedMore();
    void scanString_data();
    void scanString();
    void skipWhitespace();
    void unescapeString_data();
    void unescapeString();
    void compositeMatchesByteByByteScan();
};

// moc reads raw string literals as ordinary strings and trips on the JSON
// inside them: fixtures and slot bodies are kept out of its sight.
#ifndef Q_MOC_RUN

namespace {

std::string_view view(const QByteArray& b)
{
    return { b.constData(), static_cast<std::size_t>(b.size()) };
}

} // namespace

void TestJsonScan::scanValue_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("pos");
    QTest::addColumn<ScanStatus>("status");
    QTest::addColumn<int>("end");

    const auto complete = ScanStatus::Complete;
    const auto needMore = ScanStatus::NeedMore;
    const auto invalid = ScanStatus::Invalid;

    QTest::newRow("object") << QByteArray(R"({"a": 1}, next)") << 0 << complete << 8;
    QTest::newRow("array") << QByteArray(R"([1, 2, 3]])") << 0 << complete << 9;
    QTest::newRow("leading whitespace") << QByteArray(" \n\t [1] ") << 0 << complete << 7;
    QTest::newRow("from a position") << QByteArray(R"(xxxx {"k": []} tail)") << 4 << complete << 14;
    QTest::newRow("escaped quote in string") << QByteArray(R"({"a": "x\"}y"}, 1)") << 0 << complete << 14;
    QTest::newRow("escaped backslash before quote")
        << QByteArray(R"({"a": "x\\"}, 1)") << 0 << complete << 12;
    QTest::newRow("three backslashes then quote") << QByteArray(R"(["\\\"]"], 1)") << 0 << complete << 9;
    QTest::newRow("brackets inside strings")
        << QByteArray(R"(["]]]", "{{{", "}"], 2)") << 0 << complete << 19;
    QTest::newRow("nested") << QByteArray(R"({"a": [{"b": [[]]}, {"c": "]"}]}X)") << 0 << complete << 32;
    QTest::newRow("key with brackets") << QByteArray(R"({"[{": 1})") << 0 << complete << 9;
    QTest::newRow("string value") << QByteArray(R"("a\"b", 1)") << 0 << complete << 6;
    QTest::newRow("number then comma") << QByteArray("123.5e-3, 4") << 0 << complete << 8;
    QTest::newRow("number then brace") << QByteArray("-7}") << 0 << complete << 2;
    QTest::newRow("true then bracket") << QByteArray("true]") << 0 << complete << 4;
    QTest::newRow("null then space") << QByteArray("null ") << 0 << complete << 4;
    QTest::newRow("utf-8 in string") << QByteArray("[\"\xc3\xa9\xe2\x82\xac\"]") << 0 << complete << 9;

    QTest::newRow("open object") << QByteArray(R"({"a": [1, 2)") << 0 << needMore << 11;
    QTest::newRow("open string") << QByteArray(R"("abc)") << 0 << needMore << 4;
    QTest::newRow("string ends in backslash") << QByteArray(R"(["abc\)") << 0 << needMore << 6;
    QTest::newRow("escaped quote is not an end") << QByteArray(R"(["abc\")") << 0 << needMore << 7;
    QTest::newRow("close bracket inside open string") << QByteArray(R"(["]")") << 0 << needMore << 4;
    QTest::newRow("number at end of text") << QByteArray("123") << 0 << needMore << 3;
    QTest::newRow("only whitespace") << QByteArray("   ") << 0 << needMore << 3;
    QTest::newRow("empty") << QByteArray("") << 0 << needMore << 0;

    QTest::newRow("closing brace") << QByteArray("} ") << 0 << invalid << 0;
    QTest::newRow("closing bracket after space") << QByteArray("  ]") << 0 << invalid << 2;
    QTest::newRow("comma") << QByteArray(",1") << 0 << invalid << 0;
    QTest::newRow("colon") << QByteArray(":1") << 0 << invalid << 0;
    QTest::newRow("bad scalar char") << QByteArray("12#,") << 0 << invalid << 2;
    QTest::newRow("at sign") << QByteArray("@") << 0 << invalid << 0;
}

void TestJsonScan::scanValue()
{
    QFETCH(QByteArray, text);
    QFETCH(int, pos);
    QFETCH(ScanStatus, status);
    QFETCH(int, end);
    const json::ScanResult r = json::scanValue(view(text), static_cast<std::size_t>(pos));
    QCOMPARE(int(r.status), int(status));
    QCOMPARE(int(r.end), end);
}

// Every strict prefix of a composite or string value is incomplete: the
// splitter must wait for more bytes, never report a wrong end.
void TestJsonScan::prefixesNeedMore_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("event") << QByteArray(
        R"({"ph": "X", "name": "a\"]}[{\\", "args": {"s": "}}", "n": [1, [2, {"x": "]"}]]}, "ts": 1.5})");
    QTest::newRow("nested arrays") << QByteArray(R"([[[["\\"], "\"["]], {}])");
    QTest::newRow("string") << QByteArray(R"("\\\"\\")");
}

void TestJsonScan::prefixesNeedMore()
{
    QFETCH(QByteArray, text);
    const json::ScanResult whole = json::scanValue(view(text), 0);
    QCOMPARE(int(whole.status), int(ScanStatus::Complete));
    QCOMPARE(int(whole.end), int(text.size()));
    for (qsizetype n = 0; n < text.size(); ++n) {
        const json::ScanResult r = json::scanValue(view(text).substr(0, static_cast<std::size_t>(n)), 0);
        if (r.status != ScanStatus::NeedMore)
            QFAIL(qPrintable(QStringLiteral("prefix of %1 bytes gave status %2 end %3")
                                 .arg(n)
                                 .arg(int(r.status))
                                 .arg(r.end)));
    }
}

void TestJsonScan::scanString_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<ScanStatus>("status");
    QTest::addColumn<int>("end");
    QTest::newRow("plain") << QByteArray(R"("abc"def)") << ScanStatus::Complete << 5;
    QTest::newRow("empty string") << QByteArray(R"("")") << ScanStatus::Complete << 2;
    QTest::newRow("escaped quote") << QByteArray(R"("a\"b"c)") << ScanStatus::Complete << 6;
    QTest::newRow("escaped backslash") << QByteArray(R"("a\\"b")") << ScanStatus::Complete << 5;
    QTest::newRow("only escaped quotes") << QByteArray(R"("\"\")") << ScanStatus::NeedMore << 5;
    QTest::newRow("unterminated") << QByteArray(R"("abc)") << ScanStatus::NeedMore << 4;
}

void TestJsonScan::scanString()
{
    QFETCH(QByteArray, text);
    QFETCH(ScanStatus, status);
    QFETCH(int, end);
    const json::ScanResult r = json::scanString(view(text), 0);
    QCOMPARE(int(r.status), int(status));
    QCOMPARE(int(r.end), end);
}

void TestJsonScan::skipWhitespace()
{
    QCOMPARE(json::skipWhitespace(" \t\r\n x", 0), std::size_t(5));
    QCOMPARE(json::skipWhitespace("x  ", 0), std::size_t(0));
    QCOMPARE(json::skipWhitespace("x  ", 1), std::size_t(3));
    QCOMPARE(json::skipWhitespace("", 0), std::size_t(0));
}

void TestJsonScan::unescapeString_data()
{
    QTest::addColumn<QByteArray>("quoted");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << QByteArray(R"("traceEvents")") << true << QByteArray("traceEvents");
    QTest::newRow("empty") << QByteArray(R"("")") << true << QByteArray("");
    QTest::newRow("quote and backslash") << QByteArray(R"("a\"b\\c\/d")") << true << QByteArray("a\"b\\c/d");
    QTest::newRow("control escapes") << QByteArray(R"("\b\f\n\r\t")") << true << QByteArray("\b\f\n\r\t");
    QTest::newRow("unicode ascii") << QByteArray(R"("\u0041x")") << true << QByteArray("Ax");
    QTest::newRow("unicode 2 bytes") << QByteArray(R"("\u00e9")") << true << QByteArray("\xc3\xa9");
    QTest::newRow("unicode 3 bytes") << QByteArray(R"("\u20AC")") << true << QByteArray("\xe2\x82\xac");
    QTest::newRow("bad escape") << QByteArray(R"("\x")") << false << QByteArray();
    QTest::newRow("bad hex") << QByteArray(R"("\u12g4")") << false << QByteArray();
    QTest::newRow("short unicode") << QByteArray(R"("\u12")") << false << QByteArray();
    QTest::newRow("not quoted") << QByteArray("abc") << false << QByteArray();
    QTest::newRow("one quote") << QByteArray("\"") << false << QByteArray();
}

void TestJsonScan::unescapeString()
{
    QFETCH(QByteArray, quoted);
    QFETCH(bool, valid);
    QFETCH(QByteArray, expected);
    const auto s = json::unescapeString(view(quoted));
    QCOMPARE(s.has_value(), valid);
    if (valid)
        QCOMPARE(QByteArray::fromStdString(*s), expected);
}

namespace {

// The reference: the end of the composite at text[0], one byte at a time.
std::size_t byteByByteEnd(std::string_view text)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return std::string_view::npos;
}

// Random nested objects whose strings hold brackets, quotes and runs of
// backslashes at every offset, so escapes and strings cross the scanner's
// 64-byte blocks in every way.
std::string randomComposite(std::mt19937& rng, int depth)
{
    const char* pieces[] = { "{", "[", "}", "]", "\\\\", "\\\"", ",", ":", "x", " ", "\\u005c" };
    auto randomString = [&] {
        std::string s = "\"";
        const int n = static_cast<int>(rng() % 90);
        for (int i = 0; i < n; ++i)
            s += pieces[rng() % (sizeof pieces / sizeof *pieces)];
        return s + "\"";
    };
    std::string out = "{";
    const int members = static_cast<int>(rng() % 6);
    for (int m = 0; m < members; ++m) {
        out += (m ? "," : "") + randomString() + ":";
        if (depth < 4 && rng() % 3 == 0)
            out += randomComposite(rng, depth + 1);
        else if (rng() % 2)
            out += randomString();
        else
            out += "[1, 2.5, " + randomString() + "]";
    }
    return out + "}";
}

} // namespace

void TestJsonScan::compositeMatchesByteByByteScan()
{
    std::mt19937 rng(20261123);
    for (int round = 0; round < 3000; ++round) {
        const std::string value = randomComposite(rng, 0);
        const std::string text = value + std::string(rng() % 70, ' ') + ", {\"next\": 1}";
        const std::size_t expected = byteByByteEnd(text);
        QCOMPARE(expected, value.size());
        const auto r = json::scanValue(text, 0);
        QCOMPARE(r.status, ScanStatus::Complete);
        QCOMPARE(r.end, expected);
        // Every cut before the end needs more input, never a wrong end.
        const std::size_t cut = rng() % value.size();
        QCOMPARE(json::scanValue(std::string_view(text).substr(0, cut), 0).status, ScanStatus::NeedMore);
    }
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_json_scan, TestJsonScan)
#include "tst_json_scan.moc"
