#pragma once

// Results by key, each computed once: the first request of a key computes it
// while later requests of the same key wait for it, then read it. Requests of
// other keys run meanwhile. A failed or cancelled computation keeps nothing,
// so the next request computes again. At most `maxKept` keys are kept: a new
// key beyond them drops the oldest (a range chosen on the timeline is a new
// scope each time; its results must not pile up for the session's life).
// TraceAnalyses keeps each of its kinds of result in one of these.

#include "core/common/result.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace ks::core {

// How long a result is kept: for the session's life, or while someone holds it
// (frames: the largest results, held by what was computed from them).
enum class KeepResult : std::uint8_t
{
    Always,
    WhileHeld,
};

template <typename Key, typename Value>
class KeptResults
{
public:
    KeptResults(KeepResult keep, std::size_t maxKept)
        : m_keep(keep)
        , m_maxKept(maxKept)
    {
    }

    // The kept value of `key`, or compute()'s (a Result<std::shared_ptr<const Value>>),
    // kept when it succeeds.
    template <typename Compute>
    Result<std::shared_ptr<const Value>> get(const Key& key, Compute&& compute)
    {
        const std::shared_ptr<Slot> slot = slotOf(key);
        const std::lock_guard gate(slot->gate); // one computation per key at a time
        if (std::shared_ptr<const Value> value = slot->value())
            return value;
        Result<std::shared_ptr<const Value>> computed = std::forward<Compute>(compute)();
        if (computed) {
            m_computations.fetch_add(1, std::memory_order_relaxed);
            slot->keep(computed.value(), m_keep);
        }
        return computed;
    }

    // The kept value of `key`, or null; never computes (nor waits for a computation).
    std::shared_ptr<const Value> peek(const Key& key) const
    {
        const std::lock_guard lock(m_mutex);
        for (const std::shared_ptr<Slot>& slot : m_slots)
            if (slot->key == key) {
                const std::unique_lock gate(slot->gate, std::try_to_lock);
                return gate.owns_lock() ? slot->value() : nullptr;
            }
        return nullptr;
    }

    // Every value kept now.
    std::vector<std::shared_ptr<const Value>> values() const
    {
        std::vector<std::shared_ptr<const Value>> out;
        const std::lock_guard lock(m_mutex);
        for (const std::shared_ptr<Slot>& slot : m_slots) {
            const std::unique_lock gate(slot->gate, std::try_to_lock);
            if (gate.owns_lock())
                if (std::shared_ptr<const Value> value = slot->value())
                    out.push_back(std::move(value));
        }
        return out;
    }

    // How many values were computed (not read back): what tests count.
    std::size_t computations() const { return m_computations.load(std::memory_order_relaxed); }

private:
    struct Slot
    {
        explicit Slot(Key k)
            : key(std::move(k))
        {
        }

        std::shared_ptr<const Value> value() const { return strong ? strong : weak.lock(); }

        void keep(const std::shared_ptr<const Value>& v, KeepResult how)
        {
            if (how == KeepResult::Always)
                strong = v;
            else
                weak = v;
        }

        const Key key;
        mutable std::mutex gate;
        std::shared_ptr<const Value> strong;
        std::weak_ptr<const Value> weak;
    };

    std::shared_ptr<Slot> slotOf(const Key& key)
    {
        const std::lock_guard lock(m_mutex);
        for (const std::shared_ptr<Slot>& slot : m_slots)
            if (slot->key == key)
                return slot;
        // The oldest goes; a request still computing it holds its slot and finishes.
        if (m_slots.size() >= m_maxKept)
            m_slots.erase(m_slots.begin());
        return m_slots.emplace_back(std::make_shared<Slot>(key));
    }

    const KeepResult m_keep;
    const std::size_t m_maxKept;
    mutable std::mutex m_mutex; // guards m_slots; each slot's gate guards its value
    std::vector<std::shared_ptr<Slot>> m_slots; // a handful per load: searched in order
    std::atomic<std::size_t> m_computations { 0 };
};

} // namespace ks::core
