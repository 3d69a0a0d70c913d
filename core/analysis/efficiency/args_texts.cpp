#include "core/analysis/efficiency/args_texts.h"

#include "core/io/json/args_reader.h"

#include <algorithm>
#include <charconv>
#include <iterator>

namespace ks::core {

const std::string* RankArgsTexts::textOf(std::uint32_t slice) const
{
    const auto it = text.find(slice);
    return it == text.end() ? nullptr : &it->second;
}

std::optional<std::int64_t> RankArgsTexts::sequenceOf(std::uint32_t slice) const
{
    const auto it = sequence.find(slice);
    return it == sequence.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
}

std::optional<std::int64_t> sequenceNumberOfArgs(std::string_view args)
{
    constexpr std::string_view key = "\"Sequence number\"";
    const std::size_t at = args.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::size_t i = args.find(':', at + key.size());
    if (i == std::string_view::npos)
        return std::nullopt;
    ++i;
    while (i < args.size() && (args[i] == ' ' || args[i] == '\t' || args[i] == '\n' || args[i] == '\r'))
        ++i;
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(args.data() + i, args.data() + args.size(), value);
    if (ec != std::errc() || end == args.data() + i)
        return std::nullopt;
    return value;
}

std::optional<Error> readArgsTexts(const RankTrace& trace, const ArgsWanted& wanted, RankArgsTexts& out)
{
    const auto sortedUnique = [](std::vector<std::uint32_t> v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        return v;
    };
    const std::vector<std::uint32_t> text = sortedUnique(wanted.text);
    const std::vector<std::uint32_t> sequence = sortedUnique(wanted.sequence);
    std::vector<std::uint32_t> all;
    all.reserve(text.size() + sequence.size());
    std::set_union(text.begin(), text.end(), sequence.begin(), sequence.end(), std::back_inserter(all));
    return forEachSliceArgs(trace, std::move(all), [&](std::uint32_t slice, std::string_view args) {
        if (std::binary_search(text.begin(), text.end(), slice))
            out.text.emplace(slice, std::string(args));
        if (std::binary_search(sequence.begin(), sequence.end(), slice))
            if (const auto n = sequenceNumberOfArgs(args))
                out.sequence.emplace(slice, *n);
    });
}

} // namespace ks::core
