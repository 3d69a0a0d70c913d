#include "core/analysis/memory_snapshot/snapshot_frames.h"

#include <array>
#include <string_view>

namespace ks::core {

namespace {

    bool endsWith(std::string_view text, std::string_view suffix)
    {
        return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
    }

    // A directory named torch anywhere in the path (POSIX or Windows).
    bool insideTorch(std::string_view path)
    {
        std::size_t start = 0;
        while (start <= path.size()) {
            const std::size_t end = path.find_first_of("/\\", start);
            if (end == std::string_view::npos)
                return false; // the last component is the file itself
            if (path.substr(start, end - start) == "torch")
                return true;
            start = end + 1;
        }
        return false;
    }

} // namespace

bool memoryVizKeepsFrame(const SnapshotFrame& frame)
{
    static constexpr std::array<std::string_view, 8> kOmitNames { "unwind::unwind",
        "CapturedTraceback::gather", "gather_with_cpp", "_start", "__libc_start_main", "PyEval_", "PyObject_",
        "PyFunction_" };
    static constexpr std::array<std::string_view, 10> kOmitFiles { "core/boxing", "/Register", "/Redispatch",
        "pythonrun.c", "Modules/main.c", "Objects/call.c", "Objects/methodobject.c", "pycore_ceval.h",
        "ceval.c", "cpython/abstract.h" };
    for (const std::string_view name : kOmitNames)
        if (frame.name.find(name) != std::string::npos)
            return false;
    for (const std::string_view file : kOmitFiles)
        if (frame.filename.find(file) != std::string::npos)
            return false;
    return true;
}

std::string frameText(const SnapshotFrame& frame)
{
    return frame.filename + ":" + std::to_string(frame.line) + ":" + frame.name;
}

std::string memoryVizTopFrame(const MemorySnapshot& snapshot, SnapshotStackId stack)
{
    for (const std::uint32_t f : snapshot.stack(stack))
        if (memoryVizKeepsFrame(snapshot.frames[f]))
            return frameText(snapshot.frames[f]);
    return kNoFrames;
}

const char* userFrameKindName(UserFrameKind kind)
{
    switch (kind) {
    case UserFrameKind::User:
        return "user";
    case UserFrameKind::Torch:
        return "torch";
    case UserFrameKind::None:
        return "none";
    }
    return "?";
}

UserFrame userFrame(const MemorySnapshot& snapshot, SnapshotStackId stack)
{
    const SnapshotFrame* torchFrame = nullptr;
    bool anyKept = false;
    for (const std::uint32_t f : snapshot.stack(stack)) {
        const SnapshotFrame& frame = snapshot.frames[f];
        if (!memoryVizKeepsFrame(frame))
            continue;
        anyKept = true;
        if (!endsWith(frame.filename, ".py"))
            continue;
        if (!insideTorch(frame.filename))
            return { frameText(frame), UserFrameKind::User };
        if (torchFrame == nullptr)
            torchFrame = &frame;
    }
    if (torchFrame != nullptr)
        return { frameText(*torchFrame), UserFrameKind::Torch };
    return { anyKept ? kNoPythonFrame : kNoFrames, UserFrameKind::None };
}

} // namespace ks::core
