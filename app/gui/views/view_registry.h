#pragma once

#include <QString>

#include <span>

class QWidget;

namespace ks::app {

class MainWindow;

// The groups of the analysis navigator, by the question their views answer
// (issue 24 item 1). Ctrl+1… selects them in this order.
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

// One view of the navigator. Adding a view is one row of viewSpecs()
// (view_registry.cpp): the factory makes the widget once, when the window is
// built, and may connect it to the window's signals (analysesReady, loadEnded,
// traceSet()). An AnalysisView made by analysisViewFactory is fed the window's
// analysis results under its result key with no more code. See docs/adding.md §5.
struct ViewSpec
{
    const char* id; // stable: saved layouts, --view "analysis=ID", the palette
    const char* title; // translated at use; never elided in the navigator
    ViewGroup group;
    QWidget* (*factory)(MainWindow& window);
};

// Every view of the navigator, in the order listed within each group.
std::span<const ViewSpec> viewSpecs();

} // namespace ks::app
