#pragma once

#include <cstdint>

// The pickle opcodes (Python's Lib/pickletools.py lists them with their
// protocols), named for the reader's error messages.
namespace ks::core::pickle_op {

enum Opcode : std::uint8_t
{
    kMark = '(',
    kStop = '.',
    kPop = '0',
    kPopMark = '1',
    kDup = '2',
    kFloat = 'F',
    kInt = 'I',
    kBinInt = 'J',
    kBinInt1 = 'K',
    kLong = 'L',
    kBinInt2 = 'M',
    kNone = 'N',
    kPersId = 'P',
    kBinPersId = 'Q',
    kReduce = 'R',
    kString = 'S',
    kBinString = 'T',
    kShortBinString = 'U',
    kUnicode = 'V',
    kBinUnicode = 'X',
    kAppend = 'a',
    kBuild = 'b',
    kGlobal = 'c',
    kDict = 'd',
    kEmptyDict = '}',
    kAppends = 'e',
    kGet = 'g',
    kBinGet = 'h',
    kInst = 'i',
    kLongBinGet = 'j',
    kList = 'l',
    kEmptyList = ']',
    kObj = 'o',
    kPut = 'p',
    kBinPut = 'q',
    kLongBinPut = 'r',
    kSetItem = 's',
    kTuple = 't',
    kEmptyTuple = ')',
    kSetItems = 'u',
    kBinFloat = 'G',
    kBinBytes = 'B',
    kShortBinBytes = 'C',
    kProto = 0x80,
    kNewObj = 0x81,
    kExt1 = 0x82,
    kExt2 = 0x83,
    kExt4 = 0x84,
    kTuple1 = 0x85,
    kTuple2 = 0x86,
    kTuple3 = 0x87,
    kNewTrue = 0x88,
    kNewFalse = 0x89,
    kLong1 = 0x8a,
    kLong4 = 0x8b,
    kShortBinUnicode = 0x8c,
    kBinUnicode8 = 0x8d,
    kBinBytes8 = 0x8e,
    kEmptySet = 0x8f,
    kAddItems = 0x90,
    kFrozenSet = 0x91,
    kNewObjEx = 0x92,
    kStackGlobal = 0x93,
    kMemoize = 0x94,
    kFrame = 0x95,
    kByteArray8 = 0x96,
    kNextBuffer = 0x97,
    kReadonlyBuffer = 0x98,
};

// "GLOBAL", "BINUNICODE", ...; nullptr for a byte that is no opcode.
const char* opcodeName(std::uint8_t op);

// Opcodes that reach Python objects beyond plain data: importing a name,
// calling it, setting an object's state, persistent ids, out-of-band buffers.
bool namesOrCallsCode(std::uint8_t op);

} // namespace ks::core::pickle_op
