#pragma once

#include "core/common/chunked_array.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// What a pickled value is. Only the types a PyTorch memory snapshot holds;
// the reader rejects everything else (classes, sets, buffers).
enum class PickleKind : std::uint8_t
{
    None,
    Bool,
    Int,
    Float,
    String,
    Bytes,
    List,
    Tuple,
    Dict,
};

const char* pickleKindName(PickleKind kind);

// One value, 4 bytes: the kind in the low 4 bits, the payload above. Small
// integers (|v| < 2^26: sizes, lines, streams) are inline; wider ones,
// floats, strings and containers index the document's tables (at most 2^27
// entries each). Being this small is what keeps a 100 MB snapshot's document
// within about twice the file: most of a snapshot is frames lists, one memo
// reference (2 to 5 bytes of pickle) per frame.
class PickleValue
{
public:
    PickleValue() = default;

    PickleKind kind() const { return static_cast<PickleKind>(m_bits & kKindMask); }

    bool isNone() const { return kind() == PickleKind::None; }

    bool isContainer() const
    {
        return kind() == PickleKind::List || kind() == PickleKind::Tuple || kind() == PickleKind::Dict;
    }

    static PickleValue none() { return PickleValue(PickleKind::None, 0); }

    static PickleValue boolean(bool b) { return PickleValue(PickleKind::Bool, b ? 1 : 0); }

    // nullopt when `index` is past what a value can address.
    static std::optional<PickleValue> indexed(PickleKind kind, std::uint64_t index)
    {
        if (index > kMaxIndex)
            return std::nullopt;
        return PickleValue(kind, static_cast<std::uint32_t>(index));
    }

    // The inline integer form (kInlineTag set), or nullopt when `v` is too wide.
    static std::optional<PickleValue> smallInt(std::int64_t v)
    {
        constexpr std::int64_t kLimit = std::int64_t(1) << (31 - kPayloadShift);
        if (v >= kLimit || v < -kLimit)
            return std::nullopt;
        PickleValue value;
        value.m_bits = (static_cast<std::uint32_t>(v) << kPayloadShift) | kInlineTag
            | static_cast<std::uint32_t>(PickleKind::Int);
        return value;
    }

    bool isInlineInt() const { return kind() == PickleKind::Int && (m_bits & kInlineTag) != 0; }

    std::int64_t inlineInt() const { return static_cast<std::int32_t>(m_bits) >> kPayloadShift; }

    // The table index of a non-inline value (a bool's 0 or 1).
    std::uint32_t index() const { return m_bits >> kPayloadShift; }

    bool operator==(const PickleValue& other) const = default;

    static constexpr std::uint64_t kMaxIndex = (std::uint64_t(1) << 27) - 1;

private:
    static constexpr std::uint32_t kKindMask = 0x0f;
    static constexpr std::uint32_t kInlineTag = 0x10;
    static constexpr int kPayloadShift = 5;

    PickleValue(PickleKind kind, std::uint32_t payload)
        : m_bits((payload << kPayloadShift) | static_cast<std::uint32_t>(kind))
    {
    }

    std::uint32_t m_bits = 0; // PickleKind::None
};

static_assert(sizeof(PickleValue) == 4);

// A list, tuple or dict: its items are a run of the document's item array
// (a dict's are key, value, key, value, ...).
struct PickleContainer
{
    std::uint64_t begin = 0;
    std::uint32_t size = 0; // items (a dict holds size / 2 pairs)
    std::uint16_t depth = 1; // 1 + the deepest container inside
    PickleKind kind = PickleKind::List;
    bool sealed = false; // placed inside another container: never modified again
};

// The value a pickle decodes to, with every string and container in flat
// tables. Immutable once the reader returns it. A value met twice through
// the memo (a shared frames list) is stored once: the document is a DAG,
// never a cycle (the reader refuses to modify a container once it is inside
// another, which is the only way a pickle can make one).
class PickleDocument
{
public:
    PickleValue root() const { return m_root; }

    bool asBool(PickleValue v) const { return v.kind() == PickleKind::Bool && v.index() != 0; }

    // An int (or bool, which Python counts as one); nullopt for other kinds.
    std::optional<std::int64_t> asInt(PickleValue v) const
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

    // An int or a float as a double.
    std::optional<double> asNumber(PickleValue v) const;
    // A str (or bytes) value's text; empty for other kinds.
    std::string_view asString(PickleValue v) const;

    bool isString(PickleValue v) const { return v.kind() == PickleKind::String; }

    // Items; 0 for scalars. Inline, as item() and asInt(): decoding a snapshot calls them per field.
    std::uint32_t containerSize(PickleValue v) const
    {
        return v.isContainer() ? m_containers[v.index()].size : 0;
    }

    // The i-th item of a list or tuple (or the i-th of a dict's key, value run).
    PickleValue item(PickleValue container, std::uint32_t i) const
    {
        if (!container.isContainer())
            return PickleValue::none();
        const PickleContainer& c = m_containers[container.index()];
        return i < c.size ? m_items[c.begin + i] : PickleValue::none();
    }

    std::uint32_t pairCount(PickleValue dict) const { return containerSize(dict) / 2; }

    PickleValue key(PickleValue dict, std::uint32_t pair) const { return item(dict, pair * 2); }

    PickleValue value(PickleValue dict, std::uint32_t pair) const { return item(dict, pair * 2 + 1); }

    // The value of a dict's string key (the last one, as Python keeps), or nullopt.
    std::optional<PickleValue> find(PickleValue dict, std::string_view key) const;

    std::uint16_t depth(PickleValue v) const;

    std::uint64_t itemCount() const { return m_items.size(); }

    // Lists, tuples and dicts; a container's containerIndex() is below it (for caches keyed on it).
    std::uint64_t containerCount() const { return m_containers.size(); }

    // Strings and bytes values; a String value's index() is below it (for caches keyed on it).
    std::uint64_t stringCount() const { return m_strings.size(); }

    std::uint64_t containerIndex(PickleValue v) const
    {
        return v.isContainer() ? v.index() : ~std::uint64_t(0);
    }

    // Bytes the document's tables hold (for the memory budget and the benchmark).
    std::uint64_t bytes() const;

private:
    friend class PickleBuilder;

    struct TextRange
    {
        std::uint64_t offset;
        std::uint64_t size;
    };

    // Chunked, not vectors: they grow to tens of millions of entries while the
    // reader fills them, and a vector's copy on growth would be the peak.
    PickleValue m_root;
    ChunkedArray<PickleValue> m_items;
    ChunkedArray<PickleContainer> m_containers;
    ChunkedArray<std::int64_t> m_wideInts;
    ChunkedArray<double> m_floats;
    std::string m_text; // every string's and bytes' characters, back to back
    ChunkedArray<TextRange> m_strings;
};

} // namespace ks::core
