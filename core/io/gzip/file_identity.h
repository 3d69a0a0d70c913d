#pragma once

#include "core/model/args_index.h"

#include <string>

namespace ks::core {

// Size, modification time and last 8 bytes of a file; known == false when it
// cannot be read. Recorded when a rank loads and compared before re-reading it.
FileIdentity identifyFile(const std::string& path);

} // namespace ks::core
