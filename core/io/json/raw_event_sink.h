#pragma once

#include "core/io/json/raw_event.h"

namespace ks::core {

// Where a parser delivers events when they do not go straight to a RankBuilder:
// a parse worker collects them into a batch that the builder replays later.
class RawEventSink
{
public:
    virtual ~RawEventSink() = default;
    // `event`'s views are valid only during the call.
    virtual void take(const RawEvent& event) = 0;
};

} // namespace ks::core
