#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

namespace ks::core {

// Where a load is. Bytes are those read from disk (compressed bytes for .gz),
// so the fraction is meaningful before the inflated size is known.
struct LoadProgress
{
    std::string_view stage; // "reading", "parsing", "indexing", ...
    std::uint64_t bytesDone = 0;
    std::uint64_t bytesTotal = 0;
    int ranksDone = 0;
    int ranksTotal = 0;
};

// Receives progress from the core. Implementations must be thread-safe when
// one sink is shared by ranks loading in parallel.
class ProgressSink
{
public:
    virtual ~ProgressSink() = default;
    virtual void report(const LoadProgress& progress) = 0;
};

// A cancellation flag the caller owns; the core polls it between chunks.
class CancelToken
{
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }

    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled { false };
};

} // namespace ks::core
