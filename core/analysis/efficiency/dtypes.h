#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ks::core {

// PyTorch's "Input type" names -> bytes per element and the precision a peak is
// looked up by. TraceLens's tables (PerfModel/utils.py name2bpe and
// torch_dtype_map), extended with the integer, bool and fp4 types it leaves out.

// Bytes per element; nullopt for a type no model knows ("" or "ScalarList").
// "Scalar" counts 4 bytes, as in TraceLens.
std::optional<double> bytesPerElement(std::string_view type);

// "fp32", "fp64", "fp16", "bf16", "fp8", "fp4", "int8"; "" when the type has no
// peak to be held against (integers other than int8, bool).
std::string precisionOf(std::string_view type);

} // namespace ks::core
