#pragma once

// Snapshots the tests build: a pickle written with pickle_writer.h, read back
// through the restricted unpickler into the model, as a user's file would be.

#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/analysis/memory_snapshot/snapshot_reader.h"
#include "core/io/pickle/pickle_reader.h"
#include "tests/support/pickle_writer.h"

#include <QtGlobal>

#include <cstdint>
#include <span>
#include <string>

namespace ks::test {

// The snapshot `value` describes, read as the CLI reads a file; a pickle the
// reader rejects stops the test there (it is the test's own data).
inline core::MemorySnapshot snapshotOfPy(const Py& value)
{
    const std::string bytes = pickleOf(value);
    auto doc = core::readPickle(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), "t.pickle");
    if (!doc)
        qFatal("%s", doc.error().describe().c_str());
    auto s = core::snapshotFromPickle(doc.value(), "t.pickle");
    if (!s)
        qFatal("%s", s.error().describe().c_str());
    return std::move(s).value();
}

// One stack frame of a snapshot's history or block.
inline Py snapshotFrame(const std::string& file, int line, const std::string& name)
{
    return Py::dict(
        { { "filename", Py::str(file) }, { "line", Py::integer(line) }, { "name", Py::str(name) } });
}

} // namespace ks::test
