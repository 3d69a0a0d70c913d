#include "core/analysis/cross_rank/collective_slices.h"

#include "core/analysis/frame/kernel_type.h"
#include "core/io/store_builder/typed_args.h"

#include <algorithm>

namespace ks::core {

namespace {

    constexpr std::string_view kGlooPrefix = "gloo:";

} // namespace

std::vector<CollectiveSlice> collectiveSlicesOf(const RankTrace& t)
{
    std::vector<CollectiveSlice> out;
    for (const Track& track : t.tracks) {
        for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
            if (track.kind == TrackKind::GpuStream) {
                if (classifyKernelDefault(t.sliceCategory(s), t.sliceName(s)) == KernelType::Communication)
                    out.push_back({ s, CollectiveBackend::Gpu });
            } else if (t.sliceName(s).starts_with(kGlooPrefix)) {
                out.push_back({ s, CollectiveBackend::Gloo });
            }
        }
    }
    // Tracks list GPU streams first, so a stable sort keeps GPU before CPU on ties.
    std::stable_sort(out.begin(), out.end(), [&t](const CollectiveSlice& a, const CollectiveSlice& b) {
        return t.slices.start[a.slice] < t.slices.start[b.slice];
    });
    return out;
}

CollectiveSliceInfo describeCollectiveSlice(const RankTrace& t, std::uint32_t slice)
{
    CollectiveSliceInfo info;
    info.name = std::string(t.sliceName(slice));
    const std::uint32_t row = t.extraRow(slice);
    if (row == kNoRow)
        return info;
    const ExtraArgs& x = t.extra;
    if (x.collectiveName[row].valid() && !t.name(x.collectiveName[row]).empty())
        info.name = std::string(t.name(x.collectiveName[row]));
    if (x.processGroupName[row].valid())
        info.groupName = std::string(t.name(x.processGroupName[row]));
    info.groupSize = x.groupSize[row];
    info.sequence = x.sequenceNumber[row];
    const std::int64_t elementBytes = x.dtype[row].valid() ? dtypeBytes(t.name(x.dtype[row])) : 0;
    const std::int64_t elements = std::max(x.inMsgNelems[row], x.outMsgNelems[row]);
    if (elementBytes > 0 && elements > 0)
        info.messageBytes = elements * elementBytes;
    return info;
}

std::vector<std::int64_t> parseRankList(std::string_view text)
{
    std::vector<std::int64_t> ranks;
    std::size_t i = 0;
    auto skipSpaces = [&] {
        while (i < text.size() && text[i] == ' ')
            ++i;
    };
    skipSpaces();
    if (i >= text.size() || text[i] != '[')
        return {};
    ++i;
    for (;;) {
        skipSpaces();
        if (i < text.size() && text[i] == ']')
            return ranks;
        std::size_t digits = i;
        while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
            ++digits;
        if (digits == i)
            return {}; // not a plain list of rank numbers (Kineto may truncate long ones)
        std::int64_t value = 0;
        for (; i < digits; ++i)
            value = value * 10 + (text[i] - '0');
        ranks.push_back(value);
        skipSpaces();
        if (i < text.size() && text[i] == ',')
            ++i;
        else if (i >= text.size() || text[i] != ']')
            return {};
    }
}

CollectiveGroupArgs collectiveGroupArgs(const RankTrace& t, std::uint32_t slice)
{
    CollectiveGroupArgs out;
    const std::uint32_t row = t.extraRow(slice);
    if (row == kNoRow)
        return out;
    // Typed columns: the string's content, or the text of a JSON array.
    out.ranks = parseRankList(t.name(t.extra.processGroupRanks[row]));
    out.description = std::string(t.name(t.extra.processGroupDescription[row]));
    std::sort(out.ranks.begin(), out.ranks.end());
    return out;
}

} // namespace ks::core
