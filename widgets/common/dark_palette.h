#pragma once

#include <QPalette>

namespace ks::widgets {

// A dark palette for the Fusion style (light and dark palettes
// checked). Qt 6.4 on Linux follows a dark desktop only through a platform theme;
// `kinetoscope --palette dark` uses this one, and the tests check every chart and
// the timeline against it.
QPalette darkPalette();

} // namespace ks::widgets
