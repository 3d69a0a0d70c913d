#include "core/analysis/cross_rank/collective_match.h"

#include "core/analysis/cross_rank/collective_slices.h"
#include "core/analysis/cross_rank/rank_collectives.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ks::core {

std::string_view collectiveBackendName(CollectiveBackend backend)
{
    return backend == CollectiveBackend::Gloo ? "gloo" : "gpu";
}

std::string_view collectiveMatchRuleName(CollectiveMatchRule rule)
{
    switch (rule) {
    case CollectiveMatchRule::GroupSequence:
        return "group+seq";
    case CollectiveMatchRule::GroupOrder:
        return "group+order";
    case CollectiveMatchRule::NameOrder:
        break;
    }
    return "name+order";
}

std::string CollectiveGroup::label() const
{
    if (name.empty())
        return std::string(collectiveBackendName(backend)) + " (no group info)";
    return description.empty() ? name : name + " (" + description + ")";
}

TimeNs CollectiveInstance::firstArrival() const
{
    TimeNs t = members.front().start;
    for (const auto& m : members)
        t = std::min(t, m.start);
    return t;
}

TimeNs CollectiveInstance::lastArrival() const
{
    return members[lastArrivingMember()].start;
}

TimeNs CollectiveInstance::firstEnd() const
{
    TimeNs t = members.front().end;
    for (const auto& m : members)
        t = std::min(t, m.end);
    return t;
}

TimeNs CollectiveInstance::lastEnd() const
{
    TimeNs t = members.front().end;
    for (const auto& m : members)
        t = std::max(t, m.end);
    return t;
}

std::size_t CollectiveInstance::lastArrivingMember() const
{
    std::size_t last = 0;
    for (std::size_t i = 1; i < members.size(); ++i)
        if (members[i].start > members[last].start)
            last = i;
    return last;
}

std::optional<std::size_t> CollectiveMatch::instanceOf(std::size_t rankIndex, std::uint32_t slice) const
{
    const auto it = bySlice.find((static_cast<std::uint64_t>(rankIndex) << 32) | slice);
    if (it == bySlice.end())
        return std::nullopt;
    return it->second;
}

std::int64_t dtypeBytes(std::string_view dtype)
{
    static constexpr std::pair<std::string_view, std::int64_t> kSizes[] = { { "Float", 4 }, { "Double", 8 },
        { "Half", 2 }, { "BFloat16", 2 }, { "Int", 4 }, { "Long", 8 }, { "Short", 2 }, { "Char", 1 },
        { "Byte", 1 }, { "Bool", 1 }, { "Float8_e4m3fn", 1 }, { "Float8_e5m2", 1 }, { "ComplexFloat", 8 },
        { "ComplexDouble", 16 } };
    for (const auto& [name, bytes] : kSizes)
        if (name == dtype)
            return bytes;
    return 0;
}

double busBandwidthFactor(std::string_view collectiveName, std::size_t ranks)
{
    // Compare without case, '_' and ' ': "allreduce", "AllReduce", "all_reduce".
    std::string key;
    for (const char c : collectiveName)
        if (c != '_' && c != ' ')
            key += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    const double n = static_cast<double>(std::max<std::size_t>(ranks, 1));
    if (key.find("allreduce") != std::string::npos)
        return 2.0 * (n - 1.0) / n;
    if (key.find("allgather") != std::string::npos || key.find("reducescatter") != std::string::npos
        || key.find("alltoall") != std::string::npos)
        return (n - 1.0) / n;
    return 1.0;
}

namespace {

    constexpr std::size_t kMaxNotes = 20;

    using GroupKey = std::pair<CollectiveBackend, std::string>; // backend, group name ("" = fallback)

    struct InstanceKey
    {
        CollectiveBackend backend;
        std::string group;
        CollectiveMatchRule rule;
        std::string name; // empty for GroupSequence (the Seq identifies the call)
        std::int64_t ordinal;

        // clang-tidy 14 takes the 0 of the comparison categories' < for a null pointer (llvm#53961).
        // NOLINTNEXTLINE(modernize-use-nullptr)
        auto operator<=>(const InstanceKey&) const = default;
    };

    class Matcher
    {
    public:
        explicit Matcher(const std::vector<RankCollectives>& ranks)
            : m_ranks(ranks)
        {
        }

        CollectiveMatch run()
        {
            for (std::size_t r = 0; r < m_ranks.size(); ++r)
                addRank(r);
            finishGroups();
            finishInstances();
            noteProblems();
            return std::move(m_out);
        }

    private:
        CollectiveGroupId groupFor(std::size_t rankIndex, const RankCollectiveSlice& slice)
        {
            const GroupKey key { slice.backend, slice.group };
            const auto [it, added] = m_groupIds.try_emplace(key, CollectiveGroupId {});
            if (added) {
                it->second = CollectiveGroupId(static_cast<std::uint32_t>(m_out.groups.size()));
                CollectiveGroup g;
                g.name = slice.group;
                g.backend = slice.backend;
                m_out.groups.push_back(std::move(g));
            }
            CollectiveGroup& g = m_out.groups[it->second.value];
            if (g.size == 0 && slice.groupSize > 0)
                g.size = slice.groupSize;
            // What the rank's first slice in the group says, looked at once per group and rank.
            if (g.ranks.empty() && !g.name.empty()
                && m_groupArgsRead.insert({ it->second.value, rankIndex }).second)
                for (const RankGroupArgs& args : m_ranks[rankIndex].groups)
                    if (args.backend == slice.backend && args.group == slice.group) {
                        g.ranks = args.ranks;
                        if (g.description.empty())
                            g.description = args.description;
                        break;
                    }
            return it->second;
        }

        void addRank(std::size_t rankIndex)
        {
            std::map<std::tuple<CollectiveBackend, std::string, std::string>, std::int64_t> order;
            for (const RankCollectiveSlice& s : m_ranks[rankIndex].slices) {
                const CollectiveGroupId group = groupFor(rankIndex, s);
                InstanceKey key { s.backend, s.group, CollectiveMatchRule::NameOrder, s.name, 0 };
                if (s.group.empty()) {
                    m_out.usedNameOrderFallback = true;
                    m_fallbackNames.insert(s.name);
                } else if (s.sequence >= 0) {
                    key.rule = CollectiveMatchRule::GroupSequence;
                    key.name.clear();
                    key.ordinal = s.sequence;
                } else {
                    key.rule = CollectiveMatchRule::GroupOrder;
                }
                if (key.rule != CollectiveMatchRule::GroupSequence)
                    key.ordinal = order[{ s.backend, s.group, s.name }]++;

                const auto [it, added] = m_instanceIds.try_emplace(key, m_out.instances.size());
                if (added) {
                    CollectiveInstance inst;
                    inst.group = group;
                    inst.name = s.name;
                    inst.ordinal = key.ordinal;
                    inst.rule = key.rule;
                    m_out.instances.push_back(std::move(inst));
                }
                CollectiveInstance& inst = m_out.instances[it->second];
                if (!inst.members.empty() && inst.members.back().rankIndex == rankIndex) {
                    ++m_duplicates[rankIndex];
                    continue; // the same call twice on one rank: keep the first
                }
                if (inst.messageBytes < 0 && s.messageBytes >= 0)
                    inst.messageBytes = s.messageBytes;
                inst.members.push_back({ rankIndex, s.slice, s.start, s.end });
            }
        }

        // Members from pg_config where the args did not list them.
        void finishGroups()
        {
            for (CollectiveGroup& g : m_out.groups) {
                if (!g.ranks.empty() || g.name.empty())
                    continue;
                for (const RankCollectives& t : m_ranks)
                    for (const ProcessGroupConfig& pg : t.processGroups)
                        if (pg.name == g.name && !pg.ranks.empty() && g.ranks.empty()) {
                            g.ranks = pg.ranks;
                            if (g.size == 0)
                                g.size = pg.size;
                            if (g.description.empty())
                                g.description = pg.description;
                        }
                std::sort(g.ranks.begin(), g.ranks.end());
            }
        }

        // Expected members of each instance, what is missing, order, lookup.
        void finishInstances()
        {
            std::map<std::int64_t, std::size_t> loaded; // rank number -> rankIndex
            for (std::size_t r = 0; r < m_ranks.size(); ++r)
                loaded.emplace(m_ranks[r].rank, r);
            // For groups that do not list members: the ranks having (group, name).
            std::map<std::pair<std::uint32_t, std::string>, std::set<std::int64_t>> seenOn;
            for (const CollectiveInstance& inst : m_out.instances)
                for (const CollectiveMember& m : inst.members)
                    seenOn[{ inst.group.value, inst.name }].insert(m_ranks[m.rankIndex].rank);
            for (CollectiveInstance& inst : m_out.instances) {
                const CollectiveGroup& g = m_out.groups[inst.group.value];
                std::set<std::int64_t> expected;
                if (!g.ranks.empty()) {
                    for (const std::int64_t r : g.ranks)
                        if (loaded.count(r))
                            expected.insert(r);
                } else {
                    expected = seenOn[{ inst.group.value, inst.name }];
                }
                for (const CollectiveMember& m : inst.members)
                    expected.erase(m_ranks[m.rankIndex].rank);
                inst.missingRanks.assign(expected.begin(), expected.end());
            }
            std::stable_sort(m_out.instances.begin(), m_out.instances.end(),
                [](const CollectiveInstance& a, const CollectiveInstance& b) {
                    return a.firstArrival() < b.firstArrival();
                });
            for (std::size_t i = 0; i < m_out.instances.size(); ++i)
                for (const CollectiveMember& m : m_out.instances[i].members)
                    m_out.bySlice.emplace((static_cast<std::uint64_t>(m.rankIndex) << 32) | m.slice,
                        static_cast<std::uint32_t>(i));
        }

        void note(std::string line)
        {
            if (m_out.notes.size() < kMaxNotes)
                m_out.notes.push_back(std::move(line));
            else
                ++m_droppedNotes;
        }

        static std::string joined(const std::vector<std::int64_t>& values)
        {
            std::string s;
            for (const std::int64_t v : values)
                s += (s.empty() ? "" : ", ") + std::to_string(v);
            return s;
        }

        void noteProblems()
        {
            if (m_ranks.size() < 2)
                note("only one rank loaded: collectives cannot be compared across ranks");
            if (m_out.usedNameOrderFallback) {
                std::string names;
                for (const std::string& n : m_fallbackNames)
                    names += (names.empty() ? "" : ", ") + n;
                note("no process-group information on " + names
                    + ": matched by name and order on each rank (the n-th instance of a name is one call)");
            }
            std::set<std::int64_t> loaded;
            for (const RankCollectives& t : m_ranks)
                loaded.insert(t.rank);
            for (const CollectiveGroup& g : m_out.groups) {
                std::vector<std::int64_t> absent;
                for (const std::int64_t r : g.ranks)
                    if (!loaded.count(r))
                        absent.push_back(r);
                if (!absent.empty())
                    note("group " + g.label() + ": member rank(s) " + joined(absent)
                        + " not in the folder; compared among the loaded members only");
            }
            // Instances not found on some member: one line per (group, name, rank).
            std::map<std::tuple<std::uint32_t, std::string, std::int64_t>,
                std::pair<std::size_t, std::int64_t>>
                missing; // -> count, first ordinal
            std::map<std::pair<std::uint32_t, std::string>, std::size_t> total;
            for (const CollectiveInstance& inst : m_out.instances) {
                ++total[{ inst.group.value, inst.name }];
                for (const std::int64_t r : inst.missingRanks) {
                    auto& [count, first] = missing[{ inst.group.value, inst.name, r }];
                    first = count++ == 0 ? inst.ordinal : std::min(first, inst.ordinal);
                }
            }
            for (const auto& [key, found] : missing) {
                const auto& [group, name, rank] = key;
                note(name + " in group " + m_out.groups[group].label() + ": " + std::to_string(found.first)
                    + " of " + std::to_string(total[{ group, name }]) + " instance(s) not found on rank "
                    + std::to_string(rank) + " (first: #" + std::to_string(found.second)
                    + "); compared without it");
            }
            for (const auto& [rankIndex, count] : m_duplicates)
                note("rank " + std::to_string(m_ranks[rankIndex].rank) + ": " + std::to_string(count)
                    + " collective slice(s) repeat an instance already seen (same group and Seq); the first "
                      "is used");
            if (m_droppedNotes > 0)
                m_out.notes.push_back("... and " + std::to_string(m_droppedNotes) + " more note(s)");
        }

        const std::vector<RankCollectives>& m_ranks;
        CollectiveMatch m_out;
        std::map<GroupKey, CollectiveGroupId> m_groupIds;
        std::map<InstanceKey, std::size_t> m_instanceIds;
        std::set<std::string> m_fallbackNames;
        std::map<std::size_t, std::size_t> m_duplicates;
        std::set<std::pair<std::uint32_t, std::size_t>> m_groupArgsRead; // (group, rankIndex)
        std::size_t m_droppedNotes = 0;
    };

} // namespace

RankCollectives rankCollectives(const RankTrace& trace)
{
    RankCollectives out;
    out.rank = trace.rank;
    std::set<std::pair<CollectiveBackend, std::string>> named;
    for (const CollectiveSlice& s : collectiveSlicesOf(trace)) {
        CollectiveSliceInfo info = describeCollectiveSlice(trace, s.slice);
        if (!info.groupName.empty() && named.insert({ s.backend, info.groupName }).second) {
            // The args text is decoded once per group, from the group's first slice.
            CollectiveGroupArgs args = collectiveGroupArgs(trace, s.slice);
            out.groups.push_back(
                { s.backend, info.groupName, std::move(args.ranks), std::move(args.description) });
        }
        out.slices.push_back(
            { s.backend, s.slice, std::move(info.name), std::move(info.groupName), info.groupSize,
                info.sequence, info.messageBytes, trace.slices.start[s.slice], trace.slices.end(s.slice) });
    }
    out.processGroups = trace.metadata.processGroups;
    return out;
}

CollectiveMatch matchCollectives(const std::vector<RankCollectives>& ranks)
{
    return Matcher(ranks).run();
}

CollectiveMatch matchCollectives(const std::vector<const RankTrace*>& ranks)
{
    std::vector<RankCollectives> read;
    read.reserve(ranks.size());
    for (const RankTrace* t : ranks)
        read.push_back(rankCollectives(*t));
    return matchCollectives(read);
}

CollectiveMatch matchCollectives(const TraceSet& traces)
{
    std::vector<const RankTrace*> ranks;
    for (const auto& r : traces.ranks)
        ranks.push_back(r.get());
    return matchCollectives(ranks);
}

} // namespace ks::core
