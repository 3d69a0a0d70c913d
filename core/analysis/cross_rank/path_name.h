#pragma once

// The name of a piece of a path, shared. A path repeats a few thousand names over
// millions of pieces, and its pieces are copied (a condensed edge's into the
// path's segments): a shared name copies no characters and allocates nothing.

#include "core/model/rank_trace.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

class PathName
{
public:
    PathName() = default;

    PathName(std::string_view text)
        : m_text(text.empty() ? nullptr : std::make_shared<const std::string>(text))
    {
    }

    PathName(const std::string& text)
        : PathName(std::string_view(text))
    {
    }

    PathName(const char* text)
        : PathName(std::string_view(text))
    {
    }

    bool empty() const { return !m_text; }

    std::string_view view() const { return m_text ? std::string_view(*m_text) : std::string_view(); }

    const std::string& str() const;

    operator std::string_view() const { return view(); }

    friend bool operator==(const PathName& a, const PathName& b) { return a.view() == b.view(); }

    friend bool operator==(const PathName& a, std::string_view b) { return a.view() == b; }

    friend bool operator==(const PathName& a, const std::string& b) { return a.view() == b; }

    friend bool operator==(const PathName& a, const char* b) { return a.view() == b; }

private:
    std::shared_ptr<const std::string> m_text;
};

// One PathName per name of a trace, made the first time a piece asks for it (the
// table too: a condenser that names no piece allocates nothing).
class PathNames
{
public:
    explicit PathNames(const RankTrace& trace)
        : m_trace(trace)
    {
    }

    const PathName& of(NameId id)
    {
        if (!id.valid() || id.value >= m_trace.strings.size())
            return m_none;
        if (m_names.empty())
            m_names.resize(m_trace.strings.size());
        PathName& name = m_names[id.value];
        if (name.empty())
            name = PathName(m_trace.name(id));
        return name;
    }

private:
    const RankTrace& m_trace;
    std::vector<PathName> m_names;
    PathName m_none;
};

} // namespace ks::core
