#include "core/io/pickle/pickle_document.h"

namespace ks::core {

const char* pickleKindName(PickleKind kind)
{
    switch (kind) {
    case PickleKind::None:
        return "None";
    case PickleKind::Bool:
        return "bool";
    case PickleKind::Int:
        return "int";
    case PickleKind::Float:
        return "float";
    case PickleKind::String:
        return "str";
    case PickleKind::Bytes:
        return "bytes";
    case PickleKind::List:
        return "list";
    case PickleKind::Tuple:
        return "tuple";
    case PickleKind::Dict:
        return "dict";
    }
    return "?";
}

std::optional<double> PickleDocument::asNumber(PickleValue v) const
{
    if (v.kind() == PickleKind::Float)
        return m_floats[v.index()];
    if (const auto i = asInt(v))
        return static_cast<double>(*i);
    return std::nullopt;
}

std::string_view PickleDocument::asString(PickleValue v) const
{
    if (v.kind() != PickleKind::String && v.kind() != PickleKind::Bytes)
        return {};
    const TextRange& range = m_strings[v.index()];
    return std::string_view(m_text).substr(range.offset, range.size);
}

std::optional<PickleValue> PickleDocument::find(PickleValue dict, std::string_view key) const
{
    if (dict.kind() != PickleKind::Dict)
        return std::nullopt;
    std::optional<PickleValue> found;
    const std::uint32_t pairs = pairCount(dict);
    for (std::uint32_t p = 0; p < pairs; ++p) {
        const PickleValue k = this->key(dict, p);
        if (k.kind() == PickleKind::String && asString(k) == key)
            found = value(dict, p);
    }
    return found;
}

std::uint16_t PickleDocument::depth(PickleValue v) const
{
    return v.isContainer() ? m_containers[v.index()].depth : 0;
}

std::uint64_t PickleDocument::bytes() const
{
    return m_items.bytes() + m_containers.bytes() + m_wideInts.bytes() + m_floats.bytes() + m_text.capacity()
        + m_strings.bytes();
}

} // namespace ks::core
