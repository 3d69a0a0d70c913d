#include "app/cli/commands.h"
#include "app/common/allocator_tuning.h"

#include <iostream>
#include <string>
#include <vector>

namespace {

void printUsage(std::ostream& out)
{
    out << "usage: kinetoscope-cli <command> [options]\n\n"
           "commands:\n"
           "  info PATH... [--json]           files, ranks, events by phase and category, tracks, "
           "diagnostics\n"
           "  diff CONTROL TEST [--hta-compat] [--ranks R,..] [--iterations I,..] [--device cpu|gpu|all]\n"
           "          [--short-names] [--labels C,T] [--format table|csv|json] [--out DIR]\n"
           "                                  trace diff: op/kernel counts and durations, ops added/deleted\n"
           "  counters PATH... --write-trace [--out FILE|DIR] [--ranks R,..] [--hta-compat] "
           "[--gzip|--plain]\n"
           "                                  trace with queue length and memory bandwidth counters\n"
           "  analyze PATH... [--hta-compat] [--ranks R,..] [--iterations I,..] [--only IDS]\n"
           "          [--format table|csv|json] [--out DIR]\n"
           "                                  HTA's analyses: temporal, idle, kernels, overlap,\n"
           "                                  memory-bw, queue-length, launch-stats, steps\n"
           "          [--kernel-sequences OP [--sequences-regex] [--sequences-top-k K]]\n"
           "                                  frequent CUDA kernel sequences of OP, annotated trace\n"
           "  critical-path PATH... [--rank R] [--annotation A] [--instance I|A:B] [--hta-compat]\n"
           "          [--write-trace FILE[.gz]] [--format table|csv|json] [--out DIR]\n"
           "                                  critical path of one rank, sync dependencies, overlaid trace\n"
           "  overview PATH... [--ranks R,..] [--iterations I,..] [--margin F] [--format table|csv|json]\n"
           "                                  per rank and iteration: step time, idle/compute/overlap %,\n"
           "                                  GPU busy time, stragglers flagged\n"
           "  collectives PATH... [--top N] [--format table|csv|json]\n"
           "                                  the same collective on every rank: arrival skew, last rank,\n"
           "                                  transfer time, largest skew first\n"
           "  check PATH... [--max METRIC=V,..] [--min METRIC=V,..] [--hta-compat] [--ranks R,..]\n"
           "                                  exit 1 when a rank crosses a limit (for CI); metrics: "
           "idle_pct,\n"
           "                                  compute_pct, non_compute_pct, overlap_pct, anomalies\n"
           "  summarize PATH... --out JOB.kssum [--jobs K] [--shard I/N] [--hta-compat] [--bins N]\n"
           "                                  job summary in SQLite, K ranks in memory at once; under\n"
           "                                  mpirun each process takes its share, rank 0 writes\n"
           "  merge-summaries PART... --out JOB.kssum\n"
           "                                  the parts of a sharded summarize as one summary\n"
           "  summary-info JOB.kssum...       check a summary, print its meta data and row counts\n"
           "  synth --ranks N --size-mb S --out DIR [--gzip] [--seed K] [--stragglers R,.. [--slowdown F]]\n"
           "  synth --from TRACE --copies N --out DIR [--gzip]\n"
           "                                  write realistic synthetic Kineto traces\n"
           "  help                            this text\n";
}

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces(argv);
    if (argc < 2) {
        printUsage(std::cerr);
        return 2;
    }
    const std::string command = argv[1];
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (command == "info")
        return ks::cli::runInfoCommand(args, std::cout, std::cerr);
    if (command == "diff")
        return ks::cli::runDiffCommand(args, std::cout, std::cerr);
    if (command == "counters")
        return ks::cli::runCountersCommand(args, std::cout, std::cerr);
    if (command == "analyze")
        return ks::cli::runAnalyzeCommand(args, std::cout, std::cerr);
    if (command == "critical-path")
        return ks::cli::runCriticalPathCommand(args, std::cout, std::cerr);
    if (command == "check")
        return ks::cli::runCheckCommand(args, std::cout, std::cerr);
    if (command == "overview")
        return ks::cli::runOverviewCommand(args, std::cout, std::cerr);
    if (command == "collectives")
        return ks::cli::runCollectivesCommand(args, std::cout, std::cerr);
    if (command == "summarize")
        return ks::cli::runSummarizeCommand(args, std::cout, std::cerr);
    if (command == "merge-summaries")
        return ks::cli::runMergeSummariesCommand(args, std::cout, std::cerr);
    if (command == "summary-info")
        return ks::cli::runSummaryInfoCommand(args, std::cout, std::cerr);
    if (command == "synth")
        return ks::cli::runSynthCommand(args, std::cout, std::cerr);
    if (command == "help" || command == "--help" || command == "-h") {
        printUsage(std::cout);
        return 0;
    }
    std::cerr << "kinetoscope-cli: unknown command '" << command << "'\n";
    printUsage(std::cerr);
    return 2;
}
