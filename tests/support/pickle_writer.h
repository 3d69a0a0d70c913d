#pragma once

// Tiny pickles written by the tests: a value tree (None, bool, int, float,
// str, list, tuple, dict) encoded with the opcodes Python's pickler uses for
// protocol 4, so the reader's tests and the snapshot tests can build inputs
// of every shape (and break them) without Python.

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace ks::test {

struct Py
{
    enum class Kind
    {
        None,
        Bool,
        Int,
        Float,
        Str,
        List,
        Tuple,
        Dict
    };

    Kind kind = Kind::None;
    std::int64_t i = 0;
    double f = 0;
    std::string s;
    std::vector<Py> items;
    // A dict's entries in order: keys[i] maps to values[i] (two vectors, as a vector of
    // pairs of an incomplete Py does not compile with clang and libstdc++ 12).
    std::vector<Py> keys;
    std::vector<Py> values;

    static Py none() { return {}; }

    static Py boolean(bool b)
    {
        Py p;
        p.kind = Kind::Bool;
        p.i = b;
        return p;
    }

    static Py integer(std::int64_t v)
    {
        Py p;
        p.kind = Kind::Int;
        p.i = v;
        return p;
    }

    static Py real(double v)
    {
        Py p;
        p.kind = Kind::Float;
        p.f = v;
        return p;
    }

    static Py str(std::string v)
    {
        Py p;
        p.kind = Kind::Str;
        p.s = std::move(v);
        return p;
    }

    static Py list(std::vector<Py> v)
    {
        Py p;
        p.kind = Kind::List;
        p.items = std::move(v);
        return p;
    }

    static Py tuple(std::vector<Py> v)
    {
        Py p;
        p.kind = Kind::Tuple;
        p.items = std::move(v);
        return p;
    }

    // Keys are strings (all a snapshot uses).
    static Py dict(std::vector<std::pair<std::string, Py>> v)
    {
        Py p;
        p.kind = Kind::Dict;
        for (auto& [k, value] : v) {
            p.keys.push_back(str(k));
            p.values.push_back(std::move(value));
        }
        return p;
    }
};

inline void appendLE(std::string& out, std::uint64_t v, int bytes)
{
    for (int b = 0; b < bytes; ++b)
        out.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
}

inline void writePy(std::string& out, const Py& p)
{
    switch (p.kind) {
    case Py::Kind::None:
        out += 'N';
        break;
    case Py::Kind::Bool:
        out += static_cast<char>(p.i ? 0x88 : 0x89);
        break;
    case Py::Kind::Int:
        if (p.i >= 0 && p.i < 256) {
            out += 'K';
            appendLE(out, static_cast<std::uint64_t>(p.i), 1);
        } else if (p.i >= INT32_MIN && p.i <= INT32_MAX) {
            out += 'J';
            appendLE(out, static_cast<std::uint64_t>(p.i), 4);
        } else {
            out += static_cast<char>(0x8a); // LONG1: 8 bytes of two's complement hold any int64
            out += static_cast<char>(8);
            appendLE(out, static_cast<std::uint64_t>(p.i), 8);
        }
        break;
    case Py::Kind::Float: {
        out += 'G';
        std::uint64_t bits = 0;
        std::memcpy(&bits, &p.f, 8);
        for (int b = 7; b >= 0; --b)
            out.push_back(static_cast<char>((bits >> (8 * b)) & 0xff));
        break;
    }
    case Py::Kind::Str:
        out += static_cast<char>(0x8c); // SHORT_BINUNICODE, else BINUNICODE
        if (p.s.size() >= 256) {
            out.back() = 'X';
            appendLE(out, p.s.size(), 4);
        } else {
            appendLE(out, p.s.size(), 1);
        }
        out += p.s;
        break;
    case Py::Kind::List:
        out += "](";
        for (const Py& item : p.items)
            writePy(out, item);
        out += 'e';
        break;
    case Py::Kind::Tuple:
        out += '(';
        for (const Py& item : p.items)
            writePy(out, item);
        out += 't';
        break;
    case Py::Kind::Dict:
        out += "}(";
        for (std::size_t e = 0; e < p.keys.size(); ++e) {
            writePy(out, p.keys[e]);
            writePy(out, p.values[e]);
        }
        out += 'u';
        break;
    }
}

// PROTO 4, the value, STOP.
inline std::string pickleOf(const Py& p)
{
    std::string out = "\x80\x04";
    writePy(out, p);
    out += '.';
    return out;
}

} // namespace ks::test
