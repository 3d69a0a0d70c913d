#pragma once

#include <functional>
#include <string>
#include <vector>

namespace ks::bench {

struct ChildRun
{
    double seconds = 0;
    long peakRssKb = 0;
    int exitCode = 0;
    long minorFaults = 0; // first touches of fresh pages, mostly
    double systemSeconds = 0; // kernel time: page faults, thread starts, reads
    double userSeconds = 0;
};

// Runs `work` in a forked child so its peak memory is its own; returns wall
// time and the child's peak RSS.
ChildRun runInChild(const std::function<int()>& work);

// Runs a shell command in a child, same measures.
ChildRun runCommand(const std::string& command);

double median(std::vector<double> values);

} // namespace ks::bench
