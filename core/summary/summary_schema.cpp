#include "core/summary/summary_schema.h"

namespace ks::core {

const std::vector<SummaryTable>& summaryTables()
{
    // Times: *_ns are absolute nanoseconds as recorded in the trace (epoch for
    // Kineto); *_us are durations in microseconds as the analyses report them.
    static const std::vector<SummaryTable> tables = {
        { "meta", { "key TEXT PRIMARY KEY", "value TEXT NOT NULL" } },
        { "ranks",
            { "file_index INTEGER", "file TEXT", "rank INTEGER", "analysis_rank INTEGER", "rank_source TEXT",
                "status TEXT", "error TEXT", "size_bytes INTEGER", "json_bytes INTEGER", "events INTEGER",
                "start_ns INTEGER", "end_ns INTEGER" } },
        { "diagnostics",
            { "file_index INTEGER", "rank INTEGER", "kind TEXT", "count INTEGER", "example TEXT" } },
        { "analysis_status", { "file_index INTEGER", "rank INTEGER", "analysis TEXT", "reason TEXT" } },
        { "rank_iterations",
            { "rank INTEGER", "iteration INTEGER", "step_time_us REAL", "idle_pct REAL", "compute_pct REAL",
                "non_compute_pct REAL", "overlap_pct REAL", "gpu_busy_us REAL", "straggler INTEGER",
                "dataloader_pct REAL", "tensor_core_pct REAL" } },
        { "kernel_types", { "rank INTEGER", "kernel_type TEXT", "sum_us REAL", "percentage REAL" } },
        { "top_kernels",
            { "rank INTEGER", "name TEXT", "kernel_type TEXT", "sum_us REAL", "max_us REAL", "min_us REAL",
                "stddev_us REAL", "mean_us REAL" } },
        { "launch_stats",
            { "rank INTEGER", "metric TEXT", "count INTEGER", "mean_us REAL", "min_us REAL", "p50_us REAL",
                "p90_us REAL", "p99_us REAL", "max_us REAL", "above_cutoff INTEGER" } },
        { "queue_length",
            { "rank INTEGER", "stream INTEGER", "count REAL", "mean REAL", "std REAL", "min REAL", "p25 REAL",
                "p50 REAL", "p75 REAL", "max REAL" } },
        { "memory_bandwidth",
            { "rank INTEGER", "name TEXT", "count REAL", "mean_gbps REAL", "std_gbps REAL", "min_gbps REAL",
                "p25_gbps REAL", "p50_gbps REAL", "p75_gbps REAL", "max_gbps REAL" } },
        { "collectives",
            { "rank INTEGER", "kind TEXT", "name TEXT", "ordinal INTEGER", "collective_name TEXT",
                "process_group TEXT", "seq INTEGER", "group_size INTEGER", "in_nelems INTEGER",
                "out_nelems INTEGER", "dtype TEXT", "stream INTEGER", "thread INTEGER", "start_ns INTEGER",
                "end_ns INTEGER" } },
        // What matchCollectives reads of each rank (core/summary/summary_collectives.h):
        // every collective slice (position: its order on the rank), and what the
        // args and pg_config say of its groups; its iteration and the part of it its
        // rank's own compute covered (exposed_communication's hidden time, null where
        // the rank had no frame). wait_ns is derived when the summary is finished: the
        // time from this rank's arrival to the instance's last.
        { kCollectiveArrivalsTable,
            { "rank INTEGER", "position INTEGER", "backend TEXT", "collective TEXT", "process_group TEXT",
                "seq INTEGER", "group_size INTEGER", "message_bytes INTEGER", "start_ns INTEGER",
                "end_ns INTEGER", "iteration INTEGER", "compute_beside_ns INTEGER", "wait_ns INTEGER" } },
        { kCollectiveGroupsTable,
            { "rank INTEGER", "source TEXT", "backend TEXT", "process_group TEXT", "description TEXT",
                "size INTEGER", "ranks TEXT" } },
        { "stream_utilisation",
            { "rank INTEGER", "stream INTEGER", "bin INTEGER", "computation_ns INTEGER",
                "communication_ns INTEGER", "memory_ns INTEGER", "other_ns INTEGER" } },
        { "user_annotations",
            { "rank INTEGER", "source TEXT", "name TEXT", "sum_us REAL", "max_us REAL", "min_us REAL",
                "stddev_us REAL", "mean_us REAL" } },
        { kFindingsTable,
            { "rank INTEGER", "rule TEXT", "title TEXT", "gain_pct REAL", "severity TEXT", "iterations TEXT",
                "evidence TEXT", "suggestion TEXT", "where_events TEXT", "where_ranges TEXT",
                "gain_basis TEXT", "what_if TEXT", "measured_ns INTEGER", "subject TEXT",
                "gain_high_pct REAL" } },
        // Derived from stream_utilisation when the summary is finished (never
        // copied from parts): every rank's bins summed over its streams.
        { kRankProfilesTable,
            { "rank INTEGER", "streams INTEGER", "first_bin INTEGER", "bin_count INTEGER", "profile BLOB" } },
        // The memory analysis per rank (summary_memory.h); bytes, absolute ns. time_base_ns:
        // what `memory` counts its times from (peak_time_us = (peak_ns - time_base_ns) / 1000).
        { kMemoryPeaksTable,
            { "rank INTEGER", "device TEXT", "peak_allocated_b INTEGER", "peak_reserved_b INTEGER",
                "peak_ns INTEGER", "time_base_ns INTEGER", "peak_operator TEXT", "capacity_b INTEGER" } },
        { kMemoryStepsTable,
            { "rank INTEGER", "device TEXT", "step INTEGER", "start_ns INTEGER", "end_ns INTEGER",
                "allocated_at_start_b INTEGER", "allocated_at_end_b INTEGER",
                "step_peak_allocated_b INTEGER" } },
        { kMemoryTopOpsTable,
            { "rank INTEGER", "device TEXT", "position INTEGER", "operator TEXT", "calls INTEGER",
                "self_allocation_size_b INTEGER", "self_allocation_count INTEGER",
                "allocation_size_b INTEGER", "self_size_increase_b INTEGER" } },
    };
    return tables;
}

std::string summarySchemaSql()
{
    std::string sql;
    for (const SummaryTable& table : summaryTables()) {
        sql += "CREATE TABLE ";
        sql += table.name;
        sql += " (";
        for (std::size_t i = 0; i < table.columns.size(); ++i) {
            sql += i ? ", " : "";
            sql += table.columns[i];
        }
        sql += ");\n";
    }
    sql += "CREATE TABLE ";
    sql += kUtilisationScratchTable;
    // One row per rank and stream: its bins at its own width, as one blob (rank_profile.h's
    // encoding). A row per bin made this table the writer's largest cost.
    sql += " (rank INTEGER, stream INTEGER, width_ns INTEGER, first_bin INTEGER, bins BLOB);\n";
    return sql;
}

} // namespace ks::core
