#pragma once

// What the insights engine reports: findings ranked by how much of
// the step (or traced) time fixing them would give back, and the rules that
// could not run with the reason.

#include "core/analysis/cross_rank/what_if.h"
#include "core/analysis/frame/intervals.h"
#include "core/model/event_tables.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

enum class Severity : std::uint8_t
{
    Info,
    Warning,
    Critical,
};

// "info", "warning", "critical".
std::string_view severityName(Severity severity);

// A stretch of one rank's time, absolute ns as recorded (the trace's own clock).
struct TimeRange
{
    TimeNs start = 0;
    TimeNs end = 0;
};

// Where a finding shows on one rank: traceEvents indexes and time ranges, the
// most telling first (each list is capped, see kMaxWherePerRank).
struct RankWhere
{
    std::int64_t rank = 0;
    std::vector<std::int64_t> events;
    std::vector<TimeRange> ranges;
};

inline constexpr std::size_t kMaxWherePerRank = 20;

// Every stretch of one rank's time a gain is the critical path's time within (frame
// time base, uncapped, unlike RankWhere's): two findings that measure the same idle
// time are then not added in the Overview's "if you fix the first two".
struct RankGainIntervals
{
    std::int64_t rank = 0;
    std::vector<Interval> intervals;
};

// Ranks a merged finding lists places for (the best rank first): a 1000-rank job
// repeats the same places on every rank.
inline constexpr std::size_t kMaxWhereRanks = 16;

struct Finding
{
    std::string rule; // the rule's id, part of the interface ("gpu_idle_sync")
    // What the finding is about when its rule reports several per rank
    // (low_efficiency: the op family, "GEMM"); ranks' findings merge per rule and subject.
    std::string subject;
    std::string title; // one line
    // Share of the measured (step or traced) time fixing it gives back: the
    // re-timed fix the suggestion names, at the low end of what its model allows
    // (findings rank by it); gainHighPct is the high end (equal when the model is sure).
    double gainPct = 0;
    double gainHighPct = 0;
    Severity severity = Severity::Info;
    std::vector<std::int64_t> ranks;
    std::vector<std::int64_t> iterations; // ProfilerStep numbers; empty: not tied to one
    std::vector<std::string> evidence; // numbers from the analyses, one line each
    std::string suggestion;
    std::vector<RankWhere> where;
    // How the gain was estimated: "what-if kind:launch_overhead=0 ..." (rerun the
    // critical path with these rules) or "time on the critical path".
    std::string gainBasis;
    std::vector<std::string> whatIf; // the what-if rules behind the gain, empty when none
    // The fix's edits of particular events behind the gain (rows of the frames the
    // rules ran on, frame time base), with whatIf the fix as one what-if: the
    // Overview's "if you fix the first two" re-times two findings' fixes together.
    // Not stored in a job summary.
    std::vector<WhatIfRankEdits> whatIfEdits;
    // Where the gain was measured when it is path time within intervals (no what-if);
    // not stored in a job summary or written in the reports.
    std::vector<RankGainIntervals> gainIntervals;

    bool hasWhatIf() const { return !whatIf.empty() || !whatIfEdits.empty(); }
};

// A rule that could not run on this input, and why ("needs at least two ranks").
struct RuleNotApplicable
{
    std::string rule;
    std::string reason;
};

struct InsightsReport
{
    std::vector<Finding> findings; // largest gain first, ties by severity then rule id
    std::vector<RuleNotApplicable> notApplicable; // in rule order
    TimeNs measuredNs = 0; // the time gains are shares of
    std::string measuredWhat; // "iteration 12", "the traced time"
    std::vector<std::string> notes; // what the critical path noted
    // Share of measuredNs the job's critical path spends in collectives' transfer
    // and unmatched communication (the Overview's "exposed communication"); unset without a path.
    std::optional<double> exposedCommPct;
    // What fixing the first two findings together gives back, in % (their fixes
    // re-timed at once: gains of the same idle time are not added); unset with fewer
    // than two findings.
    std::optional<double> firstTwoGainPct;
};

// Severity of a finding whose only weight is its gain: critical from 10 %, warning from 2 %.
Severity severityOfGain(double gainPct);

// Sorts findings as the report lists them.
void rankFindings(std::vector<Finding>& findings);

} // namespace ks::core
