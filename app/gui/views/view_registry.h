#pragma once

#include <QString>

#include <span>

class QWidget;

namespace ks::widgets {
class TaskPools;
} // namespace ks::widgets

namespace ks::app {

class TraceSession;

// The groups of the analysis navigator, by the question their views answer
//. Ctrl+1… selects them in this order.
enum class ViewGroup
{
    Overview,
    Time,
    Kernels,
    Efficiency,
    Operators,
    MemoryAndCounters,
    Job,
    Diagnostics,
};

inline constexpr int kViewGroupCount = static_cast<int>(ViewGroup::Diagnostics) + 1;

QString viewGroupTitle(ViewGroup group);

// What a view's factory is given: the load's session (the signals a view
// subscribes to), the window's task pools (for views that compute) and the
// parent. Never the window itself.
struct ViewContext
{
    TraceSession* session;
    widgets::TaskPools* pools;
    QWidget* parent;
};

// One view of the navigator. Adding a view is one row of viewSpecs()
// (view_registry.cpp): the factory makes the widget once, when the window is
// built. An analysis view (KS_ANALYSIS_VIEW) is bound to the session there:
// the session computes its outputs and the view shows them, with no more code.
// See docs/adding.md §5.
struct ViewSpec
{
    const char* id; // stable: saved layouts, --view "analysis=ID", the palette
    const char* title; // translated at use; never elided in the navigator
    ViewGroup group;
    QWidget* (*factory)(const ViewContext& context);
    bool showsOutputs = false; // an AnalysisView over outputs of the session
};

// Every view of the navigator, in the order listed within each group.
std::span<const ViewSpec> viewSpecs();

// How many views viewSpecs() lists that are analysis views (tests count them).
int analysisViewCount();

} // namespace ks::app
