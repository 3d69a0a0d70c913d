#include "core/common/run_shares.h"

#include <exception>
#include <system_error>

namespace ks::core {

void runShares(const std::vector<BackgroundWork*>& helpers, const std::function<void(std::size_t)>& share)
{
    std::vector<std::exception_ptr> errors(helpers.size() + 1);
    auto guarded = [&](std::size_t w) {
        try {
            share(w);
        } catch (...) {
            errors[w] = std::current_exception();
        }
    };
    std::vector<std::size_t> runHere;
    std::vector<BackgroundWork*> started;
    for (std::size_t w = 1; w <= helpers.size(); ++w) {
        try {
            helpers[w - 1]->start([&guarded, w] { guarded(w); });
            started.push_back(helpers[w - 1]);
        } catch (const std::system_error&) {
            runHere.push_back(w); // no thread to spare (a process limit)
        }
    }
    guarded(0);
    for (std::size_t w : runHere)
        guarded(w);
    for (BackgroundWork* helper : started)
        helper->wait();
    for (const std::exception_ptr& error : errors)
        if (error)
            std::rethrow_exception(error);
}

} // namespace ks::core
