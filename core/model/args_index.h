#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

// What a file was when it was loaded: re-reading compares it before trusting
// any offset recorded while loading.
struct FileIdentity
{
    std::uint64_t size = 0;
    std::int64_t modifiedNs = 0;
    std::uint64_t lastBytes = 0; // the last 8 bytes (for gzip: the CRC and size trailer)
    bool known = false; // false for traces not read from a file (tests, fuzzing)

    bool operator==(const FileIdentity&) const = default;
};

// Which engine wrote an InflatePoint's state (each restores only its own).
enum class InflateEngine : std::uint8_t
{
    Isal, // a snapshot of ISA-L's inflate_state: the point may lie inside a deflate block
    Zlib, // zlib at a deflate block boundary: pending bits + the 32 KiB window (zran)
};

// A place where inflating can start again without the bytes before it.
struct InflatePoint
{
    std::uint64_t fileOffset = 0; // the next compressed byte to feed
    std::uint64_t jsonOffset = 0; // the inflated offset the point stands at
    std::uint32_t stateBytes = 0; // size of the engine state before compression
    std::vector<std::uint8_t> state; // compressed with compressBlock (block_codec.h)
};

// Finds the JSON text of any traceEvents element in the file again, so the
// store keeps no args text: the offset of every kCheckpointEvery-th
// element, and for gzip an inflate access point every kPointSpacing bytes of
// JSON. Re-reading is in core/io/args_reader.h.
class ArgsIndex
{
public:
    static constexpr std::uint32_t kCheckpointEvery = 32;
    static constexpr std::uint64_t kPointSpacing = std::uint64_t { 4 } << 20;

    FileIdentity file;
    bool gzip = false;
    InflateEngine engine = InflateEngine::Isal;
    std::vector<InflatePoint> points; // ascending jsonOffset

    // Called for every element in file order; keeps one in kCheckpointEvery.
    void noteElement(std::uint64_t eventIndex, std::uint64_t jsonOffset)
    {
        if (eventIndex % kCheckpointEvery == 0) {
            m_checkpointEvent.push_back(static_cast<std::uint32_t>(eventIndex));
            m_checkpointOffset.push_back(jsonOffset);
        }
    }

    // The last checkpoint at or before an element: its index and JSON offset;
    // false when there is none.
    bool checkpointBefore(
        std::uint32_t eventIndex, std::uint32_t& checkpointEvent, std::uint64_t& offset) const;
    // The last inflate point at or before a JSON offset; nullptr when inflating starts at the file's start.
    const InflatePoint* pointBefore(std::uint64_t jsonOffset) const;

    void finish();
    std::size_t bytesUsed() const;

private:
    std::vector<std::uint32_t> m_checkpointEvent;
    std::vector<std::uint64_t> m_checkpointOffset;
};

} // namespace ks::core
