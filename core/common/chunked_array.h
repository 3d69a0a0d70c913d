#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace ks::core {

namespace chunked_array_detail {

    // Chunks are pages mapped for them alone (operator new where there is no
    // mmap): freeing the array gives its memory back to the system at once,
    // where the heap would keep a freed document resident under whatever the
    // program allocates next; and a chunk's pages not written yet are address
    // space only, never resident.
    void* mapChunk(std::size_t bytes);
    void unmapChunk(void* chunk, std::size_t bytes);

} // namespace chunked_array_detail

// An append-only array in chunks that double: 4096 elements, 4096, 8192,
// 16384, ... It never moves what it holds, so growing it costs the new chunk
// only, where a std::vector briefly holds its old and its new buffer (1.5 x
// to 3 x what it holds) while it copies: for the tables of a 100 MB pickle
// that copy was the peak of reading it. Elements are reached by index (two
// shifts and a bit count); a run of them is not contiguous.
template <typename T>
class ChunkedArray
{
    // Elements are assigned into fresh pages, never constructed or destroyed.
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    ChunkedArray() = default;

    ChunkedArray(ChunkedArray&& other) noexcept
        : m_chunks(std::move(other.m_chunks))
        , m_size(std::exchange(other.m_size, 0))
        , m_capacity(std::exchange(other.m_capacity, 0))
    {
        other.m_chunks.clear();
    }

    ChunkedArray& operator=(ChunkedArray&& other) noexcept
    {
        ChunkedArray moved(std::move(other));
        std::swap(m_chunks, moved.m_chunks);
        std::swap(m_size, moved.m_size);
        std::swap(m_capacity, moved.m_capacity);
        return *this;
    }

    std::size_t size() const { return m_size; }

    bool empty() const { return m_size == 0; }

    const T& operator[](std::size_t i) const { return at(i); }

    T& operator[](std::size_t i) { return at(i); }

    void push_back(const T& value)
    {
        if (m_size == m_capacity)
            grow();
        at(m_size++) = value;
    }

    void append(std::span<const T> values)
    {
        for (const T& v : values)
            push_back(v);
    }

    // Bytes of the elements held (the pages written; a chunk's unwritten tail
    // costs address space only), for memory budgets and benchmarks.
    std::uint64_t bytes() const { return m_size * sizeof(T) + m_chunks.capacity() * sizeof(Chunk); }

private:
    static constexpr unsigned kFirstBits = 12;

    static std::size_t chunkStart(unsigned k) { return k == 0 ? 0 : std::size_t(1) << (kFirstBits + k - 1); }

    static std::size_t chunkSize(unsigned k) { return std::size_t(1) << (kFirstBits + (k == 0 ? 0 : k - 1)); }

    T& at(std::size_t i) const
    {
        const auto k = static_cast<unsigned>(std::bit_width(i >> kFirstBits));
        return m_chunks[k].get()[i - chunkStart(k)];
    }

    void grow()
    {
        const auto k = static_cast<unsigned>(m_chunks.size());
        m_chunks.emplace_back(static_cast<T*>(chunked_array_detail::mapChunk(chunkSize(k) * sizeof(T))),
            Unmap { chunkSize(k) });
        m_capacity += chunkSize(k);
    }

    struct Unmap
    {
        std::size_t elements = 0;

        void operator()(T* chunk) const { chunked_array_detail::unmapChunk(chunk, elements * sizeof(T)); }
    };

    using Chunk = std::unique_ptr<T[], Unmap>;

    std::vector<Chunk> m_chunks;
    std::size_t m_size = 0;
    std::size_t m_capacity = 0;
};

} // namespace ks::core
