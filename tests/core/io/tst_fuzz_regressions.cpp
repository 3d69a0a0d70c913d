// Every input the fuzzers (fuzz/) ever found a problem with is kept in
// tests/data/fuzz/<target>/ and replayed here through the same code the
// fuzz target runs, in the ordinary build. expectations.txt in each folder
// says what each input must come to now that it is fixed:
//   NAME loads             one rank loads and the analyses run on it
//   NAME fails: TEXT       nothing loads; the error line names the file and contains TEXT
// An input without an expectation fails the test, so none is kept unchecked.

#include "fuzz/fuzz_entries.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <string>

namespace {

struct Expectation
{
    bool loads = false;
    std::string errorText; // when !loads
};

// Parses expectations.txt; a line it cannot read becomes an entry that fails.
std::map<std::string, Expectation> readExpectations(const QString& path, QStringList& problems)
{
    std::map<std::string, Expectation> expectations;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        problems << QStringLiteral("cannot read %1").arg(path);
        return expectations;
    }
    const std::string kFails = " fails: ";
    while (!file.atEnd()) {
        const std::string line = file.readLine().trimmed().toStdString();
        if (line.empty() || line.front() == '#')
            continue;
        const std::size_t space = line.find(' ');
        const std::string name = line.substr(0, space);
        if (space != std::string::npos && line.substr(space) == " loads") {
            expectations[name] = Expectation { true, {} };
        } else if (space != std::string::npos && line.compare(space, kFails.size(), kFails) == 0
            && line.size() > space + kFails.size()) {
            expectations[name] = Expectation { false, line.substr(space + kFails.size()) };
        } else {
            problems
                << QStringLiteral("%1: cannot read the line '%2'").arg(path, QString::fromStdString(line));
        }
    }
    return expectations;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestFuzzRegressions : public QObject
{
    Q_OBJECT

private slots:
    void replay_data();
    void replay();
    void everyInputHasAnExpectation();
};

void TestFuzzRegressions::replay_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("loads");
    QTest::addColumn<QString>("errorText");
    const QDir root(QStringLiteral(KS_FUZZ_DATA_DIR));
    for (const QString& target : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QStringList problems;
        const auto expectations =
            readExpectations(root.filePath(target + QStringLiteral("/expectations.txt")), problems);
        for (const auto& [name, expected] : expectations) {
            const QString file = root.filePath(target + u'/' + QString::fromStdString(name));
            QTest::newRow(qPrintable(target + u'/' + QString::fromStdString(name)))
                << target << file << expected.loads << QString::fromStdString(expected.errorText);
        }
    }
}

void TestFuzzRegressions::replay()
{
    QFETCH(QString, target);
    QFETCH(QString, file);
    QFETCH(bool, loads);
    QFETCH(QString, errorText);
    QVERIFY2(QFile::exists(file), qPrintable(file + QStringLiteral(" is listed but missing")));
    const QByteArray input = readAll(file);
    const std::span<const std::uint8_t> bytes(
        reinterpret_cast<const std::uint8_t*>(input.constData()), static_cast<std::size_t>(input.size()));

    ks::fuzz::FuzzOutcome outcome;
    std::string scratchPath = "fuzz-input.json";
    QTemporaryDir scratch;
    QVERIFY(scratch.isValid());
    if (target == QStringLiteral("events")) {
        outcome = ks::fuzz::fuzzEvents(bytes);
    } else if (target == QStringLiteral("snapshot")) {
        scratchPath = "fuzz-input.pickle";
        outcome = ks::fuzz::fuzzSnapshot(bytes);
    } else if (target == QStringLiteral("load_json") || target == QStringLiteral("load_gzip")) {
        const QString name = target == QStringLiteral("load_json") ? QStringLiteral("rank0.json")
                                                                   : QStringLiteral("rank0.json.gz");
        scratchPath = scratch.filePath(name).toStdString();
        outcome = ks::fuzz::fuzzLoadFile(bytes, scratchPath);
    } else {
        QFAIL(qPrintable(QStringLiteral("unknown fuzz target folder '%1'").arg(target)));
    }

    const QString firstError =
        outcome.errors.empty() ? QString() : QString::fromStdString(outcome.errors.front());
    if (loads) {
        QVERIFY2(outcome.errors.empty(), qPrintable(QStringLiteral("failed: ") + firstError));
        QCOMPARE(outcome.ranksLoaded, std::size_t { 1 });
        if (target != QStringLiteral("events"))
            QVERIFY(outcome.analysesRun > 0);
    } else {
        QCOMPARE(outcome.ranksLoaded, std::size_t { 0 });
        QCOMPARE(outcome.errors.size(), std::size_t { 1 });
        QVERIFY2(firstError.contains(errorText), qPrintable(firstError));
        QVERIFY2(firstError.contains(QString::fromStdString(scratchPath)),
            qPrintable(QStringLiteral("the error does not name the file: ") + firstError));
        QVERIFY2(!firstError.contains(u'\n'), qPrintable(firstError));
    }
}

void TestFuzzRegressions::everyInputHasAnExpectation()
{
    const QDir root(QStringLiteral(KS_FUZZ_DATA_DIR));
    const QStringList targets = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY2(!targets.isEmpty(), "no fuzz regression folders");
    for (const QString& target : targets) {
        QStringList problems;
        const auto expectations =
            readExpectations(root.filePath(target + QStringLiteral("/expectations.txt")), problems);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
        const QDir folder(root.filePath(target));
        for (const QString& file : folder.entryList(QDir::Files, QDir::Name)) {
            if (file == QStringLiteral("expectations.txt"))
                continue;
            QVERIFY2(expectations.count(file.toStdString()),
                qPrintable(target + u'/' + file + QStringLiteral(" has no line in expectations.txt")));
        }
    }
}

KS_TEST_MAIN(tst_fuzz_regressions, TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
