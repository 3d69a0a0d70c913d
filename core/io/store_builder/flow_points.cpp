#include "core/io/store_builder/flow_points.h"

namespace ks::core {

void FlowPoints::add(NameId category, bool idIsName, char phase, const FlowPoint& point)
{
    if (phase != 's' && phase != 'f')
        return;
    auto matches = [&](const FlowGroup& g) { return g.category == category && g.idIsName == idIsName; };
    if (m_lastGroup >= m_groups.size() || !matches(m_groups[m_lastGroup])) {
        m_lastGroup = 0;
        while (m_lastGroup < m_groups.size() && !matches(m_groups[m_lastGroup]))
            ++m_lastGroup;
        if (m_lastGroup == m_groups.size()) {
            FlowGroup& g = m_groups.emplace_back();
            g.category = category;
            g.idIsName = idIsName;
            if (m_groups.size() == 1) {
                g.starts.reserve(m_reserve / 2);
                g.ends.reserve(m_reserve / 2);
            }
        }
    }
    FlowGroup& g = m_groups[m_lastGroup];
    (phase == 's' ? g.starts : g.ends).push_back(point);
}

std::size_t FlowPoints::size() const
{
    std::size_t n = 0;
    for (const FlowGroup& g : m_groups)
        n += g.starts.size() + g.ends.size();
    return n;
}

} // namespace ks::core
