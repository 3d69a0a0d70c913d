#pragma once

#include "core/common/result.h"
#include "core/io/pickle/pickle_document.h"

#include <cstdint>
#include <span>
#include <string>

namespace ks::core {

// How much a pickle may make the reader hold. A snapshot needs a few times
// its size and a nesting depth under ten; a hostile pickle that asks for more
// (a billion empty lists, a list nested a million deep) gets an error, never
// an exhausted machine or a blown stack.
struct PickleLimits
{
    std::uint32_t maxDepth = 64; // containers inside containers
    std::uint64_t maxStack = std::uint64_t(1) << 24; // values on the unpickler's stack
    // Document and working bytes; 0 = 4 x the input + 64 MiB.
    std::uint64_t maxBytes = 0;
};

// A restricted unpickler: protocol 2-5 (PROTO, FRAME), None, bool, int (any
// width up to 64 bits), float, str, bytes, list, tuple, dict and the memo.
// Every opcode that names, imports, builds or calls an object (GLOBAL,
// STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT*, PERSID,
// buffers) is an error: no code ever runs, whatever the bytes. Errors are one
// line naming `path` and what is wrong, with the byte offset.
Result<PickleDocument> readPickle(
    std::span<const std::uint8_t> bytes, const std::string& path, const PickleLimits& limits = {});

// Reads the file whole, then readPickle. A file over `maxFileBytes` is refused
// before reading.
Result<PickleDocument> readPickleFile(const std::string& path, const PickleLimits& limits = {},
    std::uint64_t maxFileBytes = std::uint64_t(8) << 30);

} // namespace ks::core
