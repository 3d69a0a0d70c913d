#include "app/cli/inputs/load_for_cli.h"

#include "app/cli/inputs/load_settings.h"
#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "core/io/trace_set_loader.h"

#include <cstdlib>
#include <ostream>

namespace ks::cli {

std::optional<core::TraceSet> loadForCli(
    const std::vector<std::string>& paths, const CliArgs& parsed, std::ostream& err)
{
    const std::optional<std::string> threads = parsed.value("--threads");
    unsigned threadCount = 0;
    if (threads) {
        try {
            threadCount = static_cast<unsigned>(std::stoul(*threads));
        } catch (...) {
            err << "kinetoscope-cli: --threads needs a number\n";
            return std::nullopt;
        }
    }
    core::LoadOptions options;
    options.background = app::makeThreadBackgroundWork;
    options.releaseFreedMemory = app::releaseFreedMemory;
    options.parseWorkers = app::parseWorkersForOneRank(threadCount);
    if (const auto bad = applyLoadSettings(parsed, options)) {
        err << "kinetoscope-cli: " << *bad << '\n';
        return std::nullopt;
    }
    auto result = core::loadTraceSet(paths, options, nullptr, nullptr,
        [threadCount](std::size_t n, const std::function<void(std::size_t)>& body) {
            app::parallelForOnThreads(n, body, threadCount);
        });
    if (!result) {
        err << "kinetoscope-cli: " << result.error().describe() << '\n';
        return std::nullopt;
    }
    const core::TraceSet& set = result.value();
    for (const auto& f : set.failures)
        err << "kinetoscope-cli: " << f.describe() << '\n';
    if (set.ranks.empty()) {
        // Failed files said why above; skipped ones (not Kineto traces) have not.
        if (set.failures.empty() || !set.skipped.empty())
            err << "kinetoscope-cli: " << core::nothingToAnalyse(set.inputs, set.skipped) << '\n';
        return std::nullopt;
    }
    return std::move(result).value();
}

std::optional<core::FrameSet> framesForCli(const core::TraceSet& traces, const core::AnalysisOptions& options,
    const std::string& command, std::ostream& err)
{
    auto frames =
        core::buildFrames(traces, options, [](std::size_t n, const std::function<void(std::size_t)>& body) {
            app::parallelForOnThreads(n, body);
        });
    if (!frames) {
        err << command << ": " << frames.error().describe() << '\n';
        return std::nullopt;
    }
    return std::move(frames).value();
}

unsigned threadsOption(const CliArgs& parsed)
{
    const auto text = parsed.value("--threads");
    return text ? static_cast<unsigned>(std::strtoul(text->c_str(), nullptr, 10)) : 0;
}

std::optional<core::FrameSet> loadFramesForCli(const CliArgs& parsed, const core::AnalysisOptions& options,
    const std::string& command, std::ostream& err)
{
    const auto loaded = loadForCli(parsed.positional(), parsed, err);
    if (!loaded)
        return std::nullopt;
    return framesForCli(*loaded, options, command, err);
}

std::shared_ptr<core::TraceAnalyses> loadSessionForCli(const CliArgs& parsed, std::ostream& err)
{
    auto loaded = loadForCli(parsed.positional(), parsed, err);
    if (!loaded)
        return nullptr;
    return std::make_shared<core::TraceAnalyses>(std::make_shared<const core::TraceSet>(std::move(*loaded)));
}

core::SessionWork cliWork(unsigned threads)
{
    core::SessionWork work;
    work.parallelFor = [threads](std::size_t n, const std::function<void(std::size_t)>& body) {
        app::parallelForOnThreads(n, body, threads);
    };
    work.releaseFreedMemory = app::releaseFreedMemory;
    return work;
}

std::shared_ptr<const core::FrameSet> sessionFramesForCli(core::TraceAnalyses& session,
    const core::AnalysisOptions& options, const core::SessionWork& work, const std::string& command,
    std::ostream& err)
{
    auto frames = session.frames(core::FrameScope { options, std::nullopt }, work);
    if (!frames) {
        err << command << ": " << frames.error().describe() << '\n';
        return nullptr;
    }
    return std::move(frames).value();
}

} // namespace ks::cli
