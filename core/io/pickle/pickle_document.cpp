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

std::optional<PickleValue> PickleValue::smallInt(std::int64_t v)
{
    constexpr std::int64_t kLimit = std::int64_t(1) << (31 - kPayloadShift);
    if (v >= kLimit || v < -kLimit)
        return std::nullopt;
    PickleValue value;
    value.m_bits = (static_cast<std::uint32_t>(v) << kPayloadShift) | kInlineTag
        | static_cast<std::uint32_t>(PickleKind::Int);
    return value;
}

std::optional<PickleValue> PickleValue::indexed(PickleKind kind, std::uint64_t index)
{
    if (index > kMaxIndex)
        return std::nullopt;
    return PickleValue(kind, static_cast<std::uint32_t>(index));
}

std::optional<std::int64_t> PickleDocument::asInt(PickleValue v) const
{
    switch (v.kind()) {
    case PickleKind::Bool:
        return static_cast<std::int64_t>(v.index());
    case PickleKind::Int:
        return v.isInlineInt() ? v.inlineInt() : m_wideInts[v.index()];
    default:
        return std::nullopt;
    }
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

std::uint32_t PickleDocument::containerSize(PickleValue v) const
{
    return v.isContainer() ? m_containers[v.index()].size : 0;
}

PickleValue PickleDocument::item(PickleValue container, std::uint32_t i) const
{
    if (!container.isContainer())
        return PickleValue::none();
    const PickleContainer& c = m_containers[container.index()];
    return i < c.size ? m_items[c.begin + i] : PickleValue::none();
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
