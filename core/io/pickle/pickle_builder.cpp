#include "core/io/pickle/pickle_builder.h"

#include <algorithm>
#include <limits>

namespace ks::core {

namespace {

    // Python refuses these as dict keys (unhashable); a snapshot never has them.
    bool hashable(PickleValue v)
    {
        return v.kind() != PickleKind::List && v.kind() != PickleKind::Dict;
    }

    // Open vectors this long give their memory back when sealed; shorter ones
    // keep it for the next container (most are a trace entry's dozen items).
    constexpr std::size_t kKeptCapacity = 1024;

} // namespace

PickleValue PickleBuilder::ref(PickleKind kind, std::uint64_t index)
{
    if (const auto v = PickleValue::indexed(kind, index))
        return *v;
    if (m_problem.empty())
        m_problem = std::string("more than 2^27 values of type ") + pickleKindName(kind)
            + " (more than a memory snapshot of any size holds)";
    return PickleValue::none();
}

PickleBuilder::PickleBuilder(std::uint64_t byteLimit, std::uint32_t maxDepth)
    : m_limit(byteLimit)
    , m_maxDepth(maxDepth)
{
}

bool PickleBuilder::charge(std::uint64_t bytes)
{
    m_charged += bytes;
    if (m_charged <= m_limit)
        return true;
    if (m_problem.empty())
        m_problem = "decoding it needs more than " + std::to_string(m_limit >> 20)
            + " MiB, more than a memory snapshot of its size does (a crafted or corrupt pickle)";
    return false;
}

PickleValue PickleBuilder::integer(std::int64_t v)
{
    if (const auto small = PickleValue::smallInt(v))
        return *small;
    charge(sizeof(std::int64_t));
    m_doc.m_wideInts.push_back(v);
    return ref(PickleKind::Int, m_doc.m_wideInts.size() - 1);
}

PickleValue PickleBuilder::floating(double v)
{
    charge(sizeof(double));
    m_doc.m_floats.push_back(v);
    return ref(PickleKind::Float, m_doc.m_floats.size() - 1);
}

PickleValue PickleBuilder::text(PickleKind kind, std::string_view bytes)
{
    if (!charge(bytes.size() + sizeof(PickleDocument::TextRange)))
        return PickleValue::none();
    m_doc.m_strings.push_back({ m_doc.m_text.size(), bytes.size() });
    m_doc.m_text.append(bytes);
    return ref(kind, m_doc.m_strings.size() - 1);
}

PickleValue PickleBuilder::openContainer(PickleKind kind)
{
    if (!charge(sizeof(PickleContainer)))
        return PickleValue::none();
    std::uint64_t slot = 0;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        slot = m_open.size();
        m_open.emplace_back();
    }
    PickleContainer c;
    c.begin = slot;
    c.kind = kind;
    m_doc.m_containers.push_back(c);
    return ref(kind, m_doc.m_containers.size() - 1);
}

bool PickleBuilder::adopt(PickleContainer& parent, std::uint32_t parentIndex, PickleValue child)
{
    if (!child.isContainer())
        return true;
    if (child.index() == parentIndex) {
        m_problem = "a container holds itself (a cyclic structure a memory snapshot never has)";
        return false;
    }
    if (!seal(child))
        return false;
    const std::uint16_t childDepth = m_doc.m_containers[child.index()].depth;
    parent.depth = std::max<std::uint16_t>(parent.depth, static_cast<std::uint16_t>(childDepth + 1));
    if (parent.depth > m_maxDepth) {
        m_problem = "containers nested deeper than " + std::to_string(m_maxDepth)
            + " levels (a memory snapshot has fewer than ten)";
        return false;
    }
    return true;
}

bool PickleBuilder::add(PickleValue container, std::span<const PickleValue> items)
{
    if (!container.isContainer() || container.kind() == PickleKind::Tuple) {
        m_problem = std::string("items added to a ") + pickleKindName(container.kind())
            + ", which is not a list or dict";
        return false;
    }
    const auto index = static_cast<std::uint32_t>(container.index());
    PickleContainer& c = m_doc.m_containers[index];
    if (c.sealed) {
        m_problem =
            "a list or dict changed after it was placed inside another (a cyclic or crafted structure)";
        return false;
    }
    if (c.kind == PickleKind::Dict) {
        if (items.size() % 2 != 0) {
            m_problem = "a dict given an odd number of keys and values";
            return false;
        }
        for (std::size_t k = 0; k < items.size(); k += 2) {
            if (!hashable(items[k])) {
                m_problem = std::string("a dict key of type ") + pickleKindName(items[k].kind());
                return false;
            }
        }
    }
    if (items.size() > std::numeric_limits<std::uint32_t>::max() - c.size) {
        m_problem = "a container with more than 2^32 items";
        return false;
    }
    if (!charge(items.size() * sizeof(PickleValue)))
        return false;
    for (const PickleValue& item : items)
        if (!adopt(c, index, item))
            return false;
    std::vector<PickleValue>& open = openItems(c);
    open.insert(open.end(), items.begin(), items.end());
    c.size += static_cast<std::uint32_t>(items.size());
    return true;
}

PickleValue PickleBuilder::tuple(std::span<const PickleValue> items)
{
    if (!charge(sizeof(PickleContainer) + items.size() * sizeof(PickleValue)))
        return PickleValue::none();
    PickleContainer c;
    c.kind = PickleKind::Tuple;
    c.sealed = true;
    const auto index = static_cast<std::uint32_t>(m_doc.m_containers.size());
    for (const PickleValue& item : items)
        if (!adopt(c, index, item))
            return PickleValue::none();
    c.begin = m_doc.m_items.size();
    c.size = static_cast<std::uint32_t>(items.size());
    m_doc.m_items.append(items);
    m_doc.m_containers.push_back(c);
    return ref(PickleKind::Tuple, index);
}

bool PickleBuilder::seal(PickleValue v)
{
    if (!v.isContainer())
        return true;
    PickleContainer& c = m_doc.m_containers[v.index()];
    if (c.sealed)
        return true;
    const std::uint64_t slot = c.begin;
    std::vector<PickleValue>& open = m_open[slot];
    c.begin = m_doc.m_items.size();
    c.sealed = true;
    m_doc.m_items.append(open);
    open.clear();
    if (open.capacity() > kKeptCapacity)
        open.shrink_to_fit();
    m_freeSlots.push_back(slot);
    return true;
}

PickleDocument PickleBuilder::finish(PickleValue root)
{
    seal(root);
    m_doc.m_root = root;
    m_open.clear();
    m_open.shrink_to_fit();
    return std::move(m_doc);
}

} // namespace ks::core
