#include "core/analysis/cross_rank/path_name.h"

namespace ks::core {

const std::string& PathName::str() const
{
    static const std::string empty; // a constant, not state: what an unnamed piece reads
    return m_text ? *m_text : empty;
}

} // namespace ks::core
