#include "bench/bench_timing.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ks::bench {

ChildRun runInChild(const std::function<int()>& work)
{
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0)
        _exit(work());
    int status = 0;
    rusage usage {};
    wait4(pid, &status, 0, &usage);
    const auto t1 = std::chrono::steady_clock::now();
    ChildRun run;
    run.seconds = std::chrono::duration<double>(t1 - t0).count();
    run.peakRssKb = usage.ru_maxrss;
    run.minorFaults = usage.ru_minflt;
    auto seconds = [](const timeval& t) {
        return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
    };
    run.systemSeconds = seconds(usage.ru_stime);
    run.userSeconds = seconds(usage.ru_utime);
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

ChildRun runCommand(const std::string& command)
{
    return runInChild([&command] {
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        return 127;
    });
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace ks::bench
