#include "core/analysis/memory_snapshot/memoryviz_events.h"

namespace ks::core {

std::vector<MemoryVizEvent> memoryVizEvents(std::span<const TraceEntry> trace)
{
    std::vector<MemoryVizEvent> events;
    events.reserve(trace.size());
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const TraceEntry& e = trace[i];
        // Merged only with the event kept just before it, as memory_viz does:
        // a free_completed after anything else stays on its own.
        if (e.action == TraceAction::FreeCompleted && !events.empty()) {
            MemoryVizEvent& prev = events.back();
            if (prev.action == TraceAction::FreeRequested && trace[prev.raw].addr == e.addr) {
                prev.action = TraceAction::Free;
                prev.completed = static_cast<std::int32_t>(i);
                continue;
            }
        }
        events.push_back({ static_cast<std::uint32_t>(i), -1, e.action });
    }
    return events;
}

} // namespace ks::core
