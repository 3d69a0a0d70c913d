// matchCollectives: process groups from Kineto's args, (group, Seq) before
// (group, name, order) before (name, order); gloo CPU collectives; only group
// members compared; bad input becomes notes. Traces built here with known
// answers, plus the real gloo job and the NCCL args of ../shared/traces.

#include "core/analysis/cross_rank/collective_match.h"
#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/collective_slices.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <algorithm>

using namespace ks;

namespace {

struct Collective
{
    std::string kernel = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
    std::string name = "allreduce"; // "Collective name"; empty: no group args at all
    std::string group; // "Process Group Name"; empty: no group args
    std::string ranks; // "Process Group Ranks"; empty: absent
    std::int64_t seq = -1; // "Seq"; -1: absent
    std::int64_t ts = 0;
    std::int64_t dur = 10;
    std::int64_t nelems = 0;
    bool gloo = false; // a gloo:* CPU slice instead of a GPU kernel
};

std::string event(const Collective& c)
{
    std::string args;
    auto add = [&args](const std::string& member) { args += (args.empty() ? "" : ",") + member; };
    if (!c.gloo)
        add(R"("stream":7)");
    if (!c.group.empty()) {
        add(R"("Process Group Name":")" + c.group + "\"");
        add(R"("Collective name":")" + c.name + "\"");
        if (!c.ranks.empty())
            add(R"("Process Group Ranks":")" + c.ranks + "\"");
        if (c.nelems > 0)
            add(R"("In msg nelems":)" + std::to_string(c.nelems) + R"(,"Out msg nelems":)"
                + std::to_string(c.nelems) + R"(,"dtype":"Float")");
    }
    if (c.seq >= 0)
        add(R"("Seq":)" + std::to_string(c.seq));
    const std::string where =
        c.gloo ? R"("cat":"cpu_op","pid":100,"tid":3)" : R"("cat":"kernel","pid":0,"tid":7)";
    return R"({"ph":"X",)" + where + R"(,"name":")" + (c.gloo ? "gloo:all_reduce" : c.kernel) + R"(","ts":)"
        + std::to_string(c.ts) + R"(,"dur":)" + std::to_string(c.dur) + R"(,"args":{)" + args + "}}";
}

std::string document(
    std::int64_t rank, const std::vector<Collective>& collectives, const std::string& pgConfig = "")
{
    std::string doc = R"({"schemaVersion":1,"distributedInfo":{"rank":)" + std::to_string(rank)
        + (pgConfig.empty() ? "" : R"(,"pg_config":)" + pgConfig) + R"(},"traceEvents":[)";
    for (std::size_t i = 0; i < collectives.size(); ++i)
        doc += (i ? "," : "") + event(collectives[i]);
    return doc + "]}";
}

std::vector<std::int64_t> memberRanks(const core::TraceSet& set, const core::CollectiveInstance& inst)
{
    std::vector<std::int64_t> out;
    for (const auto& m : inst.members)
        out.push_back(set.ranks[m.rankIndex]->rank);
    return out;
}

const core::CollectiveInstance* find(
    const core::CollectiveMatch& match, const std::string& group, std::int64_t ordinal)
{
    for (const auto& inst : match.instances)
        if (match.group(inst.group).name == group && inst.ordinal == ordinal)
            return &inst;
    return nullptr;
}

bool anyNoteContains(const core::CollectiveMatch& match, const std::string& text)
{
    return std::any_of(match.notes.begin(), match.notes.end(),
        [&text](const std::string& n) { return n.find(text) != std::string::npos; });
}

std::string notesText(const core::CollectiveMatch& match)
{
    std::string s;
    for (const auto& n : match.notes)
        s += n + "\n";
    return s;
}

// A 4-rank job: data-parallel all-reduce over group "0" = all ranks, and two
// tensor-parallel groups "1" = {0,1} and "2" = {2,3} running all-gathers of the
// same kernel name. Matching by name and order would pair rank 0's first
// all-gather with rank 2's; by group it never does.
std::vector<Collective> subgroupRank(std::int64_t rank, bool withSeq)
{
    const bool first = rank < 2;
    const std::string tp = first ? "1" : "2";
    const std::string tpRanks = first ? "[0, 1]" : "[2, 3]";
    const std::string gather = "ncclDevKernel_AllGather_RING_LL";
    // The second TP group starts its all-gathers later (at 300), so by
    // name-and-order the instances would be mixed across groups.
    const std::int64_t tpStart = first ? 100 : 300;
    std::vector<Collective> out;
    for (std::int64_t i = 0; i < 3; ++i)
        out.push_back(
            { gather, "allgather", tp, tpRanks, withSeq ? i : -1, tpStart + 50 * i + rank, 20, 256 });
    for (std::int64_t i = 0; i < 2; ++i)
        out.push_back({ "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "allreduce", "0", "[0, 1, 2, 3]",
            withSeq ? i : -1, 1000 + 500 * i + 10 * rank, 100 - 10 * rank, 1024 });
    return out;
}

} // namespace

class TestCollectiveMatch : public QObject
{
    Q_OBJECT

private slots:

    void subgroupsMatchedBySeq() { checkSubgroups(true, core::CollectiveMatchRule::GroupSequence); }

    void subgroupsMatchedByOrderWithoutSeq() { checkSubgroups(false, core::CollectiveMatchRule::GroupOrder); }

    void seqSurvivesAMissingInstance()
    {
        // Rank 1 lacks Seq 1 of group "1": Seq 2 still pairs with Seq 2.
        QTemporaryDir dir;
        auto rank1 = subgroupRank(1, true);
        rank1.erase(rank1.begin() + 1);
        const auto set = tests::loadRanks(dir,
            { document(0, subgroupRank(0, true)), document(1, rank1), document(2, subgroupRank(2, true)),
                document(3, subgroupRank(3, true)) });
        const auto match = core::matchCollectives(set);
        const auto* seq1 = find(match, "1", 1);
        const auto* seq2 = find(match, "1", 2);
        QVERIFY(seq1 && seq2);
        QCOMPARE(memberRanks(set, *seq1), (std::vector<std::int64_t> { 0 }));
        QCOMPARE(seq1->missingRanks, (std::vector<std::int64_t> { 1 }));
        QCOMPARE(memberRanks(set, *seq2), (std::vector<std::int64_t> { 0, 1 }));
        QCOMPARE(seq2->members[1].start, std::int64_t(201'000)); // rank 1's third all-gather
        QVERIFY2(anyNoteContains(match, "1 of 3 instance(s) not found on rank 1"), notesText(match).c_str());
    }

    void noGroupInfoFallsBackToNameAndOrder()
    {
        QTemporaryDir dir;
        const auto rank = [](std::int64_t r) {
            return std::vector<Collective> {
                { .name = "", .group = "", .ranks = "", .ts = 10 + r, .dur = 30 },
                { .name = "", .group = "", .ranks = "", .ts = 100 + 7 * r, .dur = 30 }
            };
        };
        const auto set = tests::loadRanks(dir, { document(0, rank(0)), document(1, rank(1)) });
        const auto match = core::matchCollectives(set);
        QCOMPARE(match.instances.size(), std::size_t(2));
        QVERIFY(match.usedNameOrderFallback);
        QCOMPARE(match.instances[1].rule, core::CollectiveMatchRule::NameOrder);
        QCOMPARE(match.instances[1].members[1].start, std::int64_t(107'000));
        QVERIFY2(anyNoteContains(match, "matched by name and order"), notesText(match).c_str());
        QVERIFY(match.group(match.instances[0].group).label().find("no group info") != std::string::npos);
    }

    void glooCollectivesAndMixedBackends()
    {
        // Group "0" is NCCL (GPU kernels), group "gloo_pg" gloo (CPU, with Seq);
        // plus an arg-less gloo slice matched by name and order.
        QTemporaryDir dir;
        const auto rank = [](std::int64_t r) {
            std::vector<Collective> c;
            c.push_back({ .group = "0", .ranks = "[0, 1]", .seq = 0, .ts = 500 + r, .dur = 40 });
            c.push_back({ .group = "gloo_pg",
                .ranks = "[0, 1]",
                .seq = 4,
                .ts = 50 + 20 * r,
                .dur = 60 - 20 * r,
                .gloo = true });
            c.push_back(
                { .group = "gloo_pg", .ranks = "[0, 1]", .seq = 5, .ts = 800, .dur = 10, .gloo = true });
            c.push_back({ .name = "", .group = "", .ranks = "", .ts = 900 + r, .dur = 10, .gloo = true });
            return c;
        };
        const auto set = tests::loadRanks(dir, { document(0, rank(0)), document(1, rank(1)) });
        const auto match = core::matchCollectives(set);
        QCOMPARE(match.instances.size(), std::size_t(4));
        for (const auto& inst : match.instances)
            QCOMPARE(inst.members.size(), std::size_t(2));
        const auto* gloo4 = find(match, "gloo_pg", 4);
        QVERIFY(gloo4);
        QCOMPARE(match.group(gloo4->group).backend, core::CollectiveBackend::Gloo);
        QCOMPARE(gloo4->rule, core::CollectiveMatchRule::GroupSequence);
        QCOMPARE(gloo4->lastArrival() - gloo4->firstArrival(), std::int64_t(20'000));
        QCOMPARE(match.group(find(match, "0", 0)->group).backend, core::CollectiveBackend::Gpu);
        QCOMPARE(match.instances.back().rule, core::CollectiveMatchRule::NameOrder);
        // The skew table reads the same match: the gloo instance waited 20 us for rank 1.
        const auto skew = core::collectiveSkew(set, match, {});
        QVERIFY2(skew.ok, skew.error.c_str());
        const core::Table& t = skew.result.frame;
        namespace col = core::collective_skew_columns;
        QCOMPARE(core::cellAsText(t.rows[0][t.find(col::kBackend).value()]), std::string("gloo"));
        QCOMPARE(core::cellAsDouble(t.rows[0][t.find(col::kSkew).value()]).value(), 20.0);
        QCOMPARE(core::cellAsDouble(t.rows[0][t.find(col::kLastRank).value()]).value(), 1.0);
    }

    void membersFromPgConfig()
    {
        // Group args without "Process Group Ranks": distributedInfo.pg_config names the members.
        QTemporaryDir dir;
        const std::string pg = R"([{"pg_name":"7","pg_desc":"tp","pg_size":2,"ranks":[0,2]}])";
        const auto rank = [&pg](std::int64_t r) {
            return document(r, { { .group = "7", .ranks = "", .seq = 0, .ts = 10, .dur = 5 } }, pg);
        };
        const auto set = tests::loadRanks(dir, { rank(0), rank(1), rank(2) });
        const auto match = core::matchCollectives(set);
        QCOMPARE(match.groups.size(), std::size_t(1));
        QCOMPARE(match.groups[0].ranks, (std::vector<std::int64_t> { 0, 2 }));
        QCOMPARE(match.groups[0].label(), std::string("7 (tp)"));
        // Rank 1 claims Seq 0 of group 7 too; it is matched, but rank 1 is no member:
        // nothing is reported missing and ranks 0 and 2 are present.
        QCOMPARE(match.instances.size(), std::size_t(1));
        QVERIFY(match.instances[0].missingRanks.empty());
    }

    void absentMembersAndSingleRank()
    {
        // Group "0" spans ranks 0-3 but only 0 and 1 are in the folder.
        QTemporaryDir dir;
        const auto rank = [](std::int64_t r) {
            return document(
                r, { { .group = "0", .ranks = "[0, 1, 2, 3]", .seq = 0, .ts = 10 + r, .dur = 5 } });
        };
        const auto set = tests::loadRanks(dir, { rank(0), rank(1) });
        const auto match = core::matchCollectives(set);
        QCOMPARE(match.instances.size(), std::size_t(1));
        QCOMPARE(match.instances[0].members.size(), std::size_t(2));
        QVERIFY(match.instances[0].missingRanks.empty()); // absent ranks are not "missing" per instance
        QVERIFY2(anyNoteContains(match, "member rank(s) 2, 3 not in the folder"), notesText(match).c_str());

        QTemporaryDir single;
        const auto one = tests::loadRanks(single, { rank(0) });
        const auto alone = core::matchCollectives(one);
        QVERIFY(anyNoteContains(alone, "only one rank"));
        QVERIFY(!core::collectiveSkew(one).ok);
    }

    void mismatchedCountsAreNoted()
    {
        QTemporaryDir dir;
        std::vector<Collective> three;
        for (std::int64_t i = 0; i < 3; ++i)
            three.push_back({ .group = "0", .ranks = "[0, 1]", .ts = 100 * i, .dur = 10 });
        std::vector<Collective> two(three.begin(), three.begin() + 2);
        const auto set = tests::loadRanks(dir, { document(0, three), document(1, two) });
        const auto match = core::matchCollectives(set);
        QCOMPARE(match.instances.size(), std::size_t(3));
        QCOMPARE(match.instances[2].missingRanks, (std::vector<std::int64_t> { 1 }));
        QVERIFY2(anyNoteContains(match, "1 of 3 instance(s) not found on rank 1 (first: #2)"),
            notesText(match).c_str());
        // The skew table compares only instances on two ranks.
        QCOMPARE(core::collectiveSkew(set, match, {}).result.frame.rows.size(), std::size_t(2));
    }

    void messageSizeAndBusBandwidth()
    {
        // 1024 floats all-reduced by 2 ranks; the last to arrive spends 100 ns:
        // algorithm bandwidth 4096 B / 100 ns = 40.96 GB/s, bus bandwidth x 2(n-1)/n = x1.
        QTemporaryDir dir;
        const auto rank = [](std::int64_t r, std::int64_t ts, std::int64_t dur) {
            Collective c { .group = "0", .ranks = "[0, 1]", .seq = 0, .ts = ts, .dur = dur, .nelems = 1024 };
            return document(r, { c });
        };
        // µs in the file: rank 1 arrives at 10 and stays 0.1 µs.
        auto doc1 = rank(1, 10, 1);
        doc1.replace(doc1.find(R"("dur":1)"), 7, R"("dur":0.1)");
        const auto set = tests::loadRanks(dir, { rank(0, 5, 5), doc1 });
        const auto out = core::collectiveSkew(set);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.frame;
        namespace col = core::collective_skew_columns;
        QCOMPARE(core::cellAsDouble(t.rows[0][t.find(col::kMessageBytes).value()]).value(), 4096.0);
        QCOMPARE(core::cellAsDouble(t.rows[0][t.find(col::kBusBandwidth).value()]).value(), 40.96);
        QCOMPARE(core::busBandwidthFactor("allreduce", 4), 1.5);
        QCOMPARE(core::busBandwidthFactor("ncclDevKernel_AllGather_RING_LL", 4), 0.75);
        QCOMPARE(core::busBandwidthFactor("broadcast", 4), 1.0);
    }

    void parsesRankLists()
    {
        QCOMPARE(core::parseRankList("[0, 1, 12]"), (std::vector<std::int64_t> { 0, 1, 12 }));
        QCOMPARE(core::parseRankList("[]"), std::vector<std::int64_t> {});
        QCOMPARE(core::parseRankList("[0, 1, ...]"), std::vector<std::int64_t> {});
        QCOMPARE(core::parseRankList("0,1"), std::vector<std::int64_t> {});
    }

    // The real gloo DDP job: no group args, 3 gloo:all_reduce on rank 0 (the
    // last one was still running when its profiler stopped) and 4 on rank 1.
    void realGlooJob()
    {
        auto loaded = core::loadTraceSet(
            { std::string(KS_SHARED_DIR) + "/traces/ddp_gloo_2ranks" }, {}, nullptr, nullptr);
        QVERIFY(loaded);
        const core::TraceSet& set = loaded.value();
        const auto match = core::matchCollectives(set);
        QCOMPARE(match.instances.size(), std::size_t(4));
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(match.instances[i].members.size(), std::size_t(2));
            QCOMPARE(match.group(match.instances[i].group).backend, core::CollectiveBackend::Gloo);
            QCOMPARE(match.instances[i].name, std::string("gloo:all_reduce"));
        }
        QCOMPARE(match.instances[3].missingRanks, (std::vector<std::int64_t> { 0 }));
        QVERIFY2(anyNoteContains(match, "matched by name and order"), notesText(match).c_str());
        QVERIFY2(anyNoteContains(match, "1 of 4 instance(s) not found on rank 0 (first: #3)"),
            notesText(match).c_str());
        // Rank 1 has twice the batch: it arrives last at every step (ts from the files).
        const auto skew = core::collectiveSkew(set);
        QVERIFY2(skew.ok, skew.error.c_str());
        const core::Table& t = skew.result.frame;
        namespace col = core::collective_skew_columns;
        QCOMPARE(t.rows.size(), std::size_t(3));
        for (std::size_t r = 0; r < 3; ++r)
            QCOMPARE(core::cellAsDouble(t.rows[r][t.find(col::kLastRank).value()]).value(), 1.0);
        // Largest skew, second step: rank 0's worker starts at 93763 us, rank 1's at 125086 us.
        QCOMPARE(core::cellAsDouble(t.rows[0][t.find(col::kSkew).value()]).value(), 125086.0 - 93763.0);
    }

    // NCCL args of a real rank-0 trace of a 2-rank job: group "0" = [0, 1] from the
    // kernel args; rank 1 is not in the folder.
    void realNcclArgs()
    {
        auto loaded = core::loadTraceSet(
            { std::string(KS_SHARED_DIR) + "/traces/nccl_ns_resolution" }, {}, nullptr, nullptr);
        QVERIFY(loaded);
        const auto match = core::matchCollectives(loaded.value());
        QCOMPARE(match.groups.size(), std::size_t(1));
        QCOMPARE(match.groups[0].ranks, (std::vector<std::int64_t> { 0, 1 }));
        QCOMPARE(match.groups[0].label(), std::string("0 (default_pg)"));
        QCOMPARE(match.instances.size(), std::size_t(21)); // 15 all-reduces, 6 broadcasts
        std::size_t allreduces = 0;
        for (const auto& inst : match.instances) {
            QCOMPARE(inst.rule, core::CollectiveMatchRule::GroupOrder);
            QVERIFY(inst.messageBytes > 0);
            allreduces += inst.name == "allreduce";
        }
        QCOMPARE(allreduces, std::size_t(15));
        QVERIFY(!match.usedNameOrderFallback);
        QVERIFY2(anyNoteContains(match, "member rank(s) 1 not in the folder"), notesText(match).c_str());
        QVERIFY(anyNoteContains(match, "only one rank"));
    }

private:
    void checkSubgroups(bool withSeq, core::CollectiveMatchRule rule)
    {
        QTemporaryDir dir;
        std::vector<std::string> docs;
        for (std::int64_t r = 0; r < 4; ++r)
            docs.push_back(document(r, subgroupRank(r, withSeq)));
        const auto set = tests::loadRanks(dir, docs);
        const auto match = core::matchCollectives(set);
        QVERIFY2(match.notes.empty(), notesText(match).c_str());
        QCOMPARE(match.groups.size(), std::size_t(3));
        QCOMPARE(match.instances.size(), std::size_t(3 + 3 + 2));
        for (std::int64_t i = 0; i < 3; ++i) {
            const auto* a = find(match, "1", i);
            const auto* b = find(match, "2", i);
            QVERIFY(a && b);
            QCOMPARE(a->rule, rule);
            QCOMPARE(memberRanks(set, *a), (std::vector<std::int64_t> { 0, 1 }));
            QCOMPARE(memberRanks(set, *b), (std::vector<std::int64_t> { 2, 3 }));
            QCOMPARE(a->lastArrival() - a->firstArrival(), std::int64_t(1000)); // ranks 0 and 1: 1 us apart
            QCOMPARE(a->messageBytes, std::int64_t(1024));
        }
        const auto* allReduce = find(match, "0", 1);
        QVERIFY(allReduce);
        QCOMPARE(memberRanks(set, *allReduce), (std::vector<std::int64_t> { 0, 1, 2, 3 }));
        QCOMPARE(allReduce->members[allReduce->lastArrivingMember()].rankIndex, std::size_t(3));
        // The lookup finds the instance from any member's slice.
        const auto& m = allReduce->members[2];
        QCOMPARE(&match.instances[match.instanceOf(m.rankIndex, m.slice).value()], allReduce);
        QCOMPARE(core::sameCollectiveOnRanks(match, m.rankIndex, m.slice).size(), std::size_t(4));
    }
};

KS_TEST_MAIN(tst_collective_match, TestCollectiveMatch)
#include "tst_collective_match.moc"
