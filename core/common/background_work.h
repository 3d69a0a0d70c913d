#pragma once

#include <functional>
#include <memory>

namespace ks::core {

// Runs one piece of work on another thread, supplied by the caller: the core
// has no threads of its own, but a load can overlap inflating and parsing when
// given one.
class BackgroundWork
{
public:
    virtual ~BackgroundWork() = default;
    virtual void start(std::function<void()> work) = 0;
    virtual void wait() = 0; // returns when the work has finished
};

using BackgroundWorkFactory = std::function<std::unique_ptr<BackgroundWork>()>;

} // namespace ks::core
