#pragma once

#include "core/io/pickle/pickle_document.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Builds a PickleDocument for the reader: scalars into their tables,
// containers while they are open (being filled) in vectors of their own,
// moved into the flat item array when sealed. A container is sealed when it
// becomes an item of another (or the root); after that it never changes,
// which keeps the document acyclic and a sealed container's items contiguous.
// Every method that fails returns false (or none) and sets problem().
class PickleBuilder
{
public:
    PickleBuilder(std::uint64_t byteLimit, std::uint32_t maxDepth);

    const std::string& problem() const { return m_problem; }

    bool failed() const { return !m_problem.empty(); }

    bool overBudget() const { return m_charged > m_limit; }

    PickleValue integer(std::int64_t v);
    PickleValue floating(double v);
    PickleValue text(PickleKind kind, std::string_view bytes);

    // A new, empty, open list or dict.
    PickleValue openContainer(PickleKind kind);
    // Appends items to an open list (a dict: key, value, ... pairs).
    bool add(PickleValue container, std::span<const PickleValue> items);
    // A tuple of the items, sealed at once.
    PickleValue tuple(std::span<const PickleValue> items);

    // Charges `bytes` of working memory (the stack, the memo) to the budget.
    bool charge(std::uint64_t bytes);

    PickleDocument finish(PickleValue root);

private:
    PickleValue ref(PickleKind kind, std::uint64_t index); // none and problem() when past kMaxIndex
    bool seal(PickleValue v);
    bool adopt(PickleContainer& parent, std::uint32_t parentIndex, PickleValue child);

    std::vector<PickleValue>& openItems(const PickleContainer& c) { return m_open[c.begin]; }

    PickleDocument m_doc;
    std::vector<std::vector<PickleValue>> m_open; // an open container's items; its `begin` is the slot
    std::vector<std::uint64_t> m_freeSlots;
    std::uint64_t m_charged = 0;
    std::uint64_t m_limit;
    std::uint32_t m_maxDepth;
    std::string m_problem;
};

} // namespace ks::core
