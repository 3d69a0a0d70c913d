#pragma once

#include "core/model/event_tables.h"
#include "core/model/ids.h"

#include <cstdint>
#include <vector>

namespace ks::core {

// A flow event waiting for its slice: 24 bytes. Category, phase and id kind
// are the group's (FlowGroup), not the point's; flow points are the largest
// staging a big rank has (a third of its events), and B4 of performance.md
// bounds the load's peak.
struct FlowPoint
{
    std::int64_t id = 0; // the numeric id, or the NameId value of a string id
    TimeNs ts = 0;
    std::uint32_t eventIndex = 0;
    std::uint32_t stagingTrack = 0;
};

// The starts ('s') and ends ('f') of one category's flows whose ids are all
// numbers, or all strings.
struct FlowGroup
{
    NameId category;
    bool idIsName = false;
    std::vector<FlowPoint> starts;
    std::vector<FlowPoint> ends;
};

// Flow points in file order, grouped. Steps ('t') bind nothing and are not kept.
class FlowPoints
{
public:
    // Address space for about `points` points in the first group (Kineto's
    // ac2g flows are most of them); later groups grow by doubling.
    void reserve(std::size_t points) { m_reserve = points; }

    void add(NameId category, bool idIsName, char phase, const FlowPoint& point);

    std::vector<FlowGroup>& groups() { return m_groups; }

    std::size_t size() const;

private:
    std::vector<FlowGroup> m_groups;
    std::size_t m_lastGroup = 0; // flows come in runs of one category
    std::size_t m_reserve = 0;
};

} // namespace ks::core
