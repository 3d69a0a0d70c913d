#pragma once

// Builders for the widget tests: tiny Kineto traces on disk, and in-memory
// trace sets for the model tests.

#include "core/io/trace_set_loader.h"
#include "core/model/trace_set.h"
#include "tests/support/synthetic_job.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <string>
#include <vector>

namespace ks::test {

// A small valid Kineto trace for one rank: CPU ops, a kernel with its launch
// flow, an instant, a counter.
inline QByteArray tinyTrace(int rank, int worldSize = 3)
{
    const QByteArray r = QByteArray::number(rank);
    return QByteArrayLiteral(R"({"schemaVersion": 1,
 "distributedInfo": {"backend": "nccl", "rank": )")
        + r + QByteArrayLiteral(R"(, "world_size": )") + QByteArray::number(worldSize)
        + QByteArrayLiteral(R"(},
 "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 11, "ts": 1000.5, "dur": 20},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1005, "dur": 4,
   "args": {"correlation": 7, "External id": 3}},
  {"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": 1012, "dur": 3,
   "args": {"device": 0, "stream": 7, "correlation": 7, "External id": 3}},
  {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 7, "pid": 10, "tid": 11, "ts": 1005},
  {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 7, "pid": 0, "tid": 7, "ts": 1012, "bp": "e"},
  {"ph": "i", "cat": "cpu_instant_event", "name": "mark", "pid": 10, "tid": 11, "ts": 1001, "s": "t"},
  {"ph": "C", "name": "queue", "pid": 0, "ts": 1002, "args": {"length": 1}},
  {"ph": "M", "name": "thread_name", "pid": 10, "tid": 11, "args": {"name": "python"}}
 ]}
)");
}

// Keeps the user's real settings out of a test: QSettings in INI files under
// `dir`, for organisation "KinetoscopeTests" and application `name`.
inline void useTestSettings(const QTemporaryDir& dir, const QString& name)
{
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
    QCoreApplication::setOrganizationName(QStringLiteral("KinetoscopeTests"));
    QCoreApplication::setApplicationName(name);
}

inline bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    return file.write(bytes) == bytes.size();
}

// The traces at `path` (a file or a folder) loaded as a shared set; null when none loads.
inline std::shared_ptr<const core::TraceSet> loadSet(const QString& path)
{
    auto loaded = core::loadTraceSet({ path.toStdString() }, {}, nullptr, nullptr);
    return loaded ? std::make_shared<const core::TraceSet>(std::move(loaded).value()) : nullptr;
}

// A folder of ../shared/traces loaded; null when the shared traces are absent.
inline std::shared_ptr<const core::TraceSet> loadSharedTraces(const char* name)
{
    const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/") + QString::fromLatin1(name);
    return QDir(folder).exists() ? loadSet(folder) : nullptr;
}

// One document written as rank-0.json to a temporary folder and loaded; null when that fails.
inline std::shared_ptr<const core::TraceSet> loadDocument(const QByteArray& json)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rank-0.json"));
    return writeFile(path, json) ? loadSet(path) : nullptr;
}

// A valid trace of `events` complete events (about 110 bytes each): big enough
// that loading it takes a while, to test progress and cancellation.
inline bool writeBigTrace(const QString& path, int events)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    QByteArray chunk;
    chunk.reserve(1 << 20);
    chunk += QByteArrayLiteral(R"({"schemaVersion": 1, "traceEvents": [)");
    for (int i = 0; i < events; ++i) {
        chunk += QByteArrayLiteral(R"({"ph": "X", "cat": "cpu_op", "name": "aten::op_)")
            + QByteArray::number(i % 97) + QByteArrayLiteral(R"(", "pid": 1, "tid": 1, "ts": )")
            + QByteArray::number(1000 + 2 * qint64(i)) + QByteArrayLiteral(R"(.125, "dur": 1})")
            + (i + 1 < events ? ",\n" : "\n");
        if (chunk.size() > (1 << 20) - 256) {
            if (file.write(chunk) != chunk.size())
                return false;
            chunk.clear();
        }
    }
    chunk += QByteArrayLiteral("]}\n");
    return file.write(chunk) == chunk.size();
}

// An in-memory rank with the given counts, for model tests.
inline std::shared_ptr<core::RankTrace> makeRank(std::int64_t rank, const std::string& path)
{
    auto trace = std::make_shared<core::RankTrace>();
    trace->path = path;
    trace->rank = rank;
    trace->rankSource = core::RankSource::DistributedInfo;
    trace->counts.events = 100 + static_cast<std::uint64_t>(rank);
    trace->counts.byPhase[static_cast<std::size_t>(core::Phase::Complete)] = 60;
    trace->counts.byPhase[static_cast<std::size_t>(core::Phase::Instant)] = 20;
    trace->counts.byPhase[static_cast<std::size_t>(core::Phase::Counter)] = 10;
    trace->counts.byPhase[static_cast<std::size_t>(core::Phase::FlowStart)] = 4;
    trace->counts.byPhase[static_cast<std::size_t>(core::Phase::FlowEnd)] = 4;
    trace->counts.byPhase[static_cast<std::size_t>(core::Phase::Metadata)] =
        2 + static_cast<std::uint64_t>(rank);
    trace->counts.byCategory["kernel"][static_cast<std::size_t>(core::Phase::Complete)] = 40;
    trace->counts.byCategory["cpu_op"][static_cast<std::size_t>(core::Phase::Complete)] = 20;
    trace->counts.byCategory["cpu_op"][static_cast<std::size_t>(core::Phase::Instant)] = 20;
    trace->counts.byCategory[""][static_cast<std::size_t>(core::Phase::Counter)] = 10;
    trace->counts.fileBytes = 4096;
    trace->startNs = 1'000'000 + rank * 500;
    trace->endNs = 3'000'000;
    core::Track gpu;
    gpu.kind = core::TrackKind::GpuStream;
    core::Track cpu;
    cpu.kind = core::TrackKind::CpuThread;
    trace->tracks = { gpu, gpu, cpu };
    return trace;
}

} // namespace ks::test
