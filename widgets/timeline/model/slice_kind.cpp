#include "widgets/timeline/model/slice_kind.h"

#include "core/analysis/frame/kernel_type.h"

namespace ks::widgets {

namespace {

    bool contains(std::string_view s, std::string_view p)
    {
        return s.find(p) != std::string_view::npos;
    }

} // namespace

QString sliceKindName(SliceKind kind)
{
    switch (kind) {
    case SliceKind::Compute:
        return QStringLiteral("Compute");
    case SliceKind::Communication:
        return QStringLiteral("Communication");
    case SliceKind::Memory:
        return QStringLiteral("Memory");
    case SliceKind::Sync:
        return QStringLiteral("Sync");
    case SliceKind::GpuOther:
        return QStringLiteral("GPU other");
    case SliceKind::CpuOp:
        return QStringLiteral("CPU op");
    case SliceKind::Runtime:
        return QStringLiteral("Runtime");
    case SliceKind::Python:
        return QStringLiteral("Python");
    case SliceKind::Annotation:
        return QStringLiteral("Annotation");
    case SliceKind::CriticalPath:
        return QStringLiteral("On critical path");
    case SliceKind::CpuOther:
    case SliceKind::Count_:
        break;
    }
    return QStringLiteral("CPU other");
}

SliceKind classifySlice(bool gpuTrack, std::string_view category, std::string_view name)
{
    if (gpuTrack) {
        if (category == "cuda_sync" || name.starts_with("Stream Wait Event") || name.starts_with("event_"))
            return SliceKind::Sync;
        switch (core::classifyKernelDefault(category, name)) {
        case core::KernelType::Computation:
            return SliceKind::Compute;
        case core::KernelType::Communication:
            return SliceKind::Communication;
        case core::KernelType::Memory:
            return SliceKind::Memory;
        case core::KernelType::Other:
            break;
        }
        return contains(name, "Sync") ? SliceKind::Sync : SliceKind::GpuOther;
    }
    if (category == "cpu_op" || category == "Operator" || category == "cpu_instant_event")
        return SliceKind::CpuOp;
    if (category == "cuda_runtime" || category == "cuda_driver" || category == "Runtime"
        || name.starts_with("hip") || name.starts_with("cuda"))
        return SliceKind::Runtime;
    if (category == "python_function")
        return SliceKind::Python;
    if (category == "user_annotation" || name.starts_with("ProfilerStep"))
        return SliceKind::Annotation;
    return SliceKind::CpuOther;
}

std::uint8_t nameColorKey(std::string_view name)
{
    std::uint32_t h = 2166136261u;
    for (char c : name) {
        h ^= static_cast<unsigned char>(c);
        h *= 16777619u;
    }
    return static_cast<std::uint8_t>(kNameKeyBase + h % kNamePaletteSize);
}

} // namespace ks::widgets
