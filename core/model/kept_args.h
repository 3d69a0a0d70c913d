#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// The args text of the slices a load was asked to keep (LoadOptions::keepArgsOf).
// The store keeps no args text; a caller that will read the args of a
// known set of ops on every rank anyway (summarize: the modelled ops' shapes for
// the roofline) keeps them while parsing instead of inflating the file again.
// Re-reading (core/io/json/args_reader.h) answers from here first.
class KeptArgs
{
public:
    // Elements are added in file order (event index ascending), as the builder meets them.
    void add(std::uint32_t eventIndex, std::string_view text);
    // The kept text of an element; nullopt when it was not kept.
    std::optional<std::string_view> find(std::uint32_t eventIndex) const;

    bool empty() const { return m_events.empty(); }

    std::size_t size() const { return m_events.size(); }

    void shrinkToFit();
    std::size_t bytesUsed() const;

private:
    std::vector<std::uint32_t> m_events; // ascending
    std::vector<std::uint32_t> m_ends; // end of each element's text in m_text
    std::string m_text;
};

} // namespace ks::core
