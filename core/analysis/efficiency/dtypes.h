#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ks::core {

// PyTorch's "Input type" names -> bytes per element and the precision a peak is
// looked up by. Two tables: ours (TraceLens's, extended with the integer, bool,
// complex and fp8 types it leaves out) and TraceLens's own (PerfModel/utils.py
// name2bpe and torch_dtype_map), which `roofline --tracelens-compat` reads.
enum class DtypeTable : bool
{
    Kinetoscope,
    TraceLens,
};

// Bytes per element; nullopt for a type the table has no size for ("" or
// "ScalarList"; in TraceLens's table also bool, short, complex ...). "Scalar"
// counts 4 bytes, as in TraceLens.
std::optional<double> bytesPerElement(std::string_view type, DtypeTable table = DtypeTable::Kinetoscope);

// "fp32", "fp64", "fp16", "bf16", "fp8", "fp4", "int8"; "" when the type has no
// peak to be held against (integers other than int8, bool; in TraceLens's table
// also signed char and e5m2).
std::string precisionOf(std::string_view type, DtypeTable table = DtypeTable::Kinetoscope);

} // namespace ks::core
