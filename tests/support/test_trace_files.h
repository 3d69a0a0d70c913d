#pragma once

// Helpers for the core reader tests: tiny traces written to a temporary folder
// (plain or gzip, built here without linking zlib), loading them, and a
// fingerprint of everything a RankTrace holds to compare two loads.

#include "core/io/json/args_reader.h"
#include "core/io/store_builder/typed_args.h"
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTemporaryDir>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ks::test {

inline std::string toStd(const QString& s)
{
    return s.toStdString();
}

// For QCOMPARE on text: QByteArray prints both values when they differ.
inline QByteArray bytes(std::string_view s)
{
    return QByteArray(s.data(), static_cast<qsizetype>(s.size()));
}

inline bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    return file.write(bytes) == bytes.size();
}

inline std::uint32_t crc32(const QByteArray& data)
{
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> t {};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (char ch : data)
        c = table[(c ^ static_cast<unsigned char>(ch)) & 0xFFu] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

inline void appendLe32(QByteArray& out, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out.append(static_cast<char>((v >> (8 * i)) & 0xFFu));
}

// One gzip member holding `data`. qCompress() yields Qt's 4-byte size prefix,
// a 2-byte zlib header, raw deflate data and a 4-byte Adler-32; the raw deflate
// part is re-wrapped with a gzip header and trailer (RFC 1952).
inline QByteArray gzipMember(const QByteArray& data, int level = 6)
{
    // qCompress() of nothing is only the size prefix: an empty deflate stream is
    // one final fixed-Huffman block holding just end-of-block (0x03 0x00).
    const QByteArray z = qCompress(data, level);
    const QByteArray deflate = data.isEmpty() ? QByteArray("\x03\x00", 2) : z.mid(6, z.size() - 6 - 4);
    QByteArray out;
    out.append("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10); // magic, deflate, no flags, mtime 0, OS unix
    out.append(deflate);
    appendLe32(out, crc32(data));
    appendLe32(out, static_cast<std::uint32_t>(data.size()));
    return out;
}

// Several gzip members, cutting `data` at the given byte offsets (like `cat a.gz b.gz`).
inline QByteArray gzipMembers(const QByteArray& data, const std::vector<qsizetype>& cuts)
{
    QByteArray out;
    qsizetype from = 0;
    for (qsizetype cut : cuts) {
        out += gzipMember(data.mid(from, cut - from));
        from = cut;
    }
    out += gzipMember(data.mid(from));
    return out;
}

// A Kineto document around the given traceEvents elements.
inline QByteArray kinetoDoc(const QByteArray& events, const QByteArray& extraKeys = {})
{
    return QByteArrayLiteral(R"({"schemaVersion": 1,)") + extraKeys
        + QByteArrayLiteral(R"( "traceEvents": [)") + events + QByteArrayLiteral("]}\n");
}

// A temporary folder that writes trace files and loads them.
class TraceDir
{
public:
    bool isValid() const { return m_dir.isValid(); }

    QString path() const { return m_dir.path(); }

    QString filePath(const QString& name) const { return m_dir.filePath(name); }

    QString write(const QString& name, const QByteArray& bytes) const
    {
        const QString p = m_dir.filePath(name);
        QDir().mkpath(QFileInfo(p).absolutePath());
        return writeFile(p, bytes) ? p : QString();
    }

    core::Result<core::RankTrace> load(
        const QString& name, const QByteArray& bytes, const core::LoadOptions& options = {}) const
    {
        const QString p = write(name, bytes);
        return core::loadRankFile(toStd(p), options, nullptr, nullptr);
    }

private:
    QTemporaryDir m_dir;
};

// Loads one in-memory document; the caller QVERIFYs ok(). The file stays until
// the test program ends: args are re-read from it (core/io/json/args_reader.h).
inline core::Result<core::RankTrace> loadJson(const QByteArray& json, const core::LoadOptions& options = {})
{
    static TraceDir dir;
    static int written = 0;
    return dir.load(QStringLiteral("trace%1.json").arg(++written), json, options);
}

// Loads `json` into `const RankTrace& var` or fails the calling test.
#define LOAD_OR_FAIL(var, json)                                                                              \
    auto var##Result = ks::test::loadJson(json);                                                             \
    QVERIFY2(var##Result.ok(), var##Result.ok() ? "" : var##Result.error().describe().c_str());              \
    const ks::core::RankTrace& var = var##Result.value()

// The one element of `v`, or kNoRow when it has none or several.
inline std::uint32_t only(const std::vector<std::uint32_t>& v)
{
    return v.size() == 1 ? v.front() : core::kNoRow;
}

inline std::uint64_t phaseCount(const core::RankTrace& t, core::Phase p)
{
    return t.counts.byPhase[static_cast<std::size_t>(p)];
}

inline std::uint64_t categoryCount(const core::RankTrace& t, std::string_view cat, core::Phase p)
{
    auto it = t.counts.byCategory.find(cat);
    return it == t.counts.byCategory.end() ? 0 : it->second[static_cast<std::size_t>(p)];
}

inline std::uint64_t diag(const core::RankTrace& t, core::DiagnosticKind kind)
{
    return t.diagnostics.count(kind);
}

// Slices with this name, in slice order.
inline std::vector<std::uint32_t> slicesNamed(const core::RankTrace& t, std::string_view name)
{
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < t.slices.size(); ++i)
        if (t.sliceName(i) == name)
            out.push_back(i);
    return out;
}

// The slice that came from traceEvents[eventIndex]; nullopt when none.
inline std::optional<std::uint32_t> sliceOfEvent(const core::RankTrace& t, std::uint32_t eventIndex)
{
    for (std::uint32_t i = 0; i < t.slices.size(); ++i)
        if (t.slices.eventIndex[i] == eventIndex)
            return i;
    return std::nullopt;
}

inline std::optional<std::uint32_t> trackNamed(const core::RankTrace& t, std::string_view name)
{
    for (std::uint32_t i = 0; i < t.tracks.size(); ++i)
        if (t.name(t.tracks[i].name) == name)
            return i;
    return std::nullopt;
}

// Everything a load produced, as text: two loads of the same content must give
// the same fingerprint whatever the chunking, compression or inflate engine.
inline std::string fingerprint(const core::RankTrace& t)
{
    std::ostringstream o;
    o << "events " << t.counts.events << " json " << t.counts.jsonBytes << " start " << t.startNs << " end "
      << t.endNs << '\n';
    for (std::size_t p = 0; p < core::kPhaseCount; ++p)
        o << t.counts.byPhase[p] << ' ';
    o << '\n';
    for (const auto& [cat, phases] : t.counts.byCategory) {
        o << "cat '" << cat << "'";
        for (auto n : phases)
            o << ' ' << n;
        o << '\n';
    }
    for (const core::Track& tr : t.tracks) {
        o << "track " << static_cast<int>(tr.kind) << ' ' << t.name(tr.name) << ' ' << tr.key.pid << '/'
          << tr.key.tid << ' ' << tr.sliceBegin << '-' << tr.sliceEnd << " nest " << tr.nestingLevels
          << " levels";
        for (auto b : tr.levelBegin)
            o << ' ' << b;
        o << '\n';
    }
    // Raw args (and External id, decoded from them) are re-read from the file:
    // every slice's has-args flag, but the text of a sample of them, read in one pass.
    std::vector<std::uint32_t> sample;
    for (std::uint32_t i = 0; i < t.slices.size(); ++i)
        if (i < 16 || i % 97 == 0 || i + 1 == t.slices.size())
            sample.push_back(i);
    std::map<std::uint32_t, std::string> argsText;
    const auto argsError = core::forEachSliceArgs(
        t, sample, [&](std::uint32_t slice, std::string_view text) { argsText[slice] = std::string(text); });
    if (argsError)
        o << "args error " << argsError->describe() << '\n';
    for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
        o << "slice " << t.slices.start[i] << ' ' << t.slices.duration(i) << ' ' << t.sliceName(i) << " ["
          << t.sliceCategory(i) << "] f" << int(t.slices.flags[i]) << " e" << t.slices.eventIndex[i] << " c"
          << t.correlation(i) << " s" << t.stream(i) << " x" << t.extraRow(i) << " l" << t.launchRow(i);
        if (i < 16 || i % 97 == 0 || i + 1 == t.slices.size()) {
            auto it = argsText.find(i);
            o << ' '
              << (it == argsText.end() ? -1 : core::extractTypedArgs(it->second).externalId.value_or(-1))
              << ' ' << (it == argsText.end() ? std::string("-") : it->second);
        }
        o << '\n';
    }
    for (std::size_t i = 0; i < t.instants.size(); ++i)
        o << "instant " << t.instants.ts[i] << ' ' << t.name(t.instants.name[i]) << ' ' << t.instants.track[i]
          << ' ' << t.instants.eventIndex[i] << '\n';
    for (std::size_t i = 0; i < t.memory.size(); ++i)
        o << "memory " << t.memory.ts[i] << ' ' << t.memory.bytes[i] << ' ' << t.memory.totalAllocated[i]
          << ' ' << t.memory.deviceId[i] << ' ' << t.memory.deviceType[i] << ' ' << t.memory.eventIndex[i]
          << '\n';
    for (const core::CounterSeries& c : t.counters) {
        o << "counter " << c.pid << ' ' << t.name(c.name) << ' ' << t.name(c.key);
        for (std::size_t k = 0; k < c.ts.size(); ++k)
            o << ' ' << c.ts[k] << '=' << c.value[k];
        o << '\n';
    }
    for (std::size_t k = 0; k < t.links.size(); ++k)
        o << "link " << t.links.from[k] << "->" << t.links.to[k] << ' ' << core::linkKindName(t.links.kind[k])
          << '\n';
    for (std::size_t k = 0; k < core::kDiagnosticKindCount; ++k) {
        const auto& e = t.diagnostics.entry(static_cast<core::DiagnosticKind>(k));
        if (e.count)
            o << "diag " << core::diagnosticName(static_cast<core::DiagnosticKind>(k)) << ' ' << e.count
              << ' ' << e.exampleEventIndex << '\n';
    }
    for (const auto& [key, raw] : t.metadata.rawKeys)
        o << "key " << key << '=' << raw.size() << '\n';
    return o.str();
}

} // namespace ks::test
