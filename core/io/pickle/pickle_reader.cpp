#include "core/io/pickle/pickle_reader.h"

#include "core/io/pickle/pickle_builder.h"
#include "core/io/pickle/pickle_file.h"
#include "core/io/pickle/pickle_opcodes.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

namespace ks::core {

namespace {

    namespace op = pickle_op;

    constexpr int kHighestProtocol = 5;
    constexpr int kLowestProtocol = 2;
    // How often a mapped input is told what the reader has passed.
    constexpr std::uint64_t kReleaseStep = std::uint64_t(8) << 20;

    std::string hexByte(std::uint8_t b)
    {
        char text[8];
        std::snprintf(text, sizeof text, "0x%02x", b);
        return text;
    }

    // What a file that is not a pickle looks like, for the error line.
    std::string notAPickle(std::span<const std::uint8_t> bytes)
    {
        const std::uint8_t first = bytes[0];
        if (first == '{' || first == '[')
            return "not a pickle: it looks like JSON (a trace? memory snapshots are .pickle files)";
        if (bytes.size() >= 2 && first == 0x1f && bytes[1] == 0x8b)
            return "not a pickle: it is gzip-compressed (decompress it first)";
        if (op::opcodeName(first) != nullptr)
            return "a pickle of protocol 0 or 1, which memory snapshots never are (they are protocol 2-5)";
        return "not a pickle (it starts with byte " + hexByte(first) + ", not PROTO 0x80)";
    }

    // The memo: PUT/GET by index. Dense indices (what picklers write) live in
    // a vector; an index far beyond it goes to a map, so `LONG_BINPUT 4e9`
    // costs one entry, not 32 GB.
    class Memo
    {
    public:
        void put(std::uint64_t index, PickleValue v)
        {
            // Dense entries are only ever appended in order, so every one is set.
            if (index < m_dense.size()) {
                m_dense[index] = v;
            } else if (index == m_dense.size()) {
                m_dense.push_back(v);
            } else {
                m_sparse[index] = v;
            }
        }

        const PickleValue* get(std::uint64_t index) const
        {
            if (index < m_dense.size())
                return &m_dense[index];
            const auto it = m_sparse.find(index);
            return it == m_sparse.end() ? nullptr : &it->second;
        }

        std::uint64_t size() const { return m_dense.size() + m_sparse.size(); }

    private:
        ChunkedArray<PickleValue> m_dense; // a snapshot memoizes every container: millions
        std::unordered_map<std::uint64_t, PickleValue> m_sparse;
    };

    class Reader
    {
    public:
        Reader(std::span<const std::uint8_t> bytes, const std::string& path, const PickleLimits& limits,
            PickleFile* file = nullptr)
            : m_bytes(bytes)
            , m_file(file)
            , m_path(path)
            , m_limits(limits)
            , m_builder(limits.maxBytes ? limits.maxBytes : 4 * bytes.size() + (std::uint64_t(64) << 20),
                  limits.maxDepth)
        {
        }

        Result<PickleDocument> run();

    private:
        Error fail(const std::string& message) const
        {
            return Error { ErrorCode::WrongType, message, m_path, m_opStart };
        }

        bool need(std::uint64_t n);
        std::uint64_t readLE(int n);
        std::string_view readBytes(std::uint64_t n);

        bool step(std::uint8_t opcode, bool& stop);
        bool scalar(std::uint8_t opcode);
        bool textValue(std::uint8_t opcode);
        bool memoOp(std::uint8_t opcode);
        bool containerOp(std::uint8_t opcode);
        bool stackOp(std::uint8_t opcode);
        bool longValue(std::uint64_t n);

        bool push(PickleValue v);

        // Values above the innermost mark (or the whole stack without one).
        std::uint64_t available() const { return m_stack.size() - (m_marks.empty() ? 0 : m_marks.back()); }

        bool popMark(std::uint64_t& from);

        bool problem(const std::string& what)
        {
            if (m_problem.empty())
                m_problem = what;
            return false;
        }

        std::span<const std::uint8_t> m_bytes;
        PickleFile* m_file; // told how far the reader has come; null for bytes in memory
        std::uint64_t m_nextRelease = kReleaseStep;
        const std::string& m_path;
        PickleLimits m_limits;
        PickleBuilder m_builder;
        std::uint64_t m_pos = 0;
        std::uint64_t m_opStart = 0;
        std::uint8_t m_op = 0;
        std::vector<PickleValue> m_stack;
        std::vector<std::uint64_t> m_marks;
        std::uint64_t m_stackHigh = 0;
        Memo m_memo;
        std::string m_problem;
        PickleValue m_result;
    };

    bool Reader::need(std::uint64_t n)
    {
        if (n <= m_bytes.size() - m_pos)
            return true;
        return problem(std::string("truncated: the file ends inside ") + op::opcodeName(m_op) + " (it needs "
            + std::to_string(n) + " more bytes, " + std::to_string(m_bytes.size() - m_pos) + " are left)");
    }

    std::uint64_t Reader::readLE(int n)
    {
        std::uint64_t v = 0;
        for (int i = 0; i < n; ++i)
            v |= std::uint64_t(m_bytes[m_pos + static_cast<std::uint64_t>(i)]) << (8 * i);
        m_pos += static_cast<std::uint64_t>(n);
        return v;
    }

    std::string_view Reader::readBytes(std::uint64_t n)
    {
        const auto* begin = reinterpret_cast<const char*>(m_bytes.data() + m_pos);
        m_pos += n;
        return { begin, static_cast<std::size_t>(n) };
    }

    bool Reader::push(PickleValue v)
    {
        if (m_builder.failed())
            return false;
        if (m_stack.size() >= m_limits.maxStack)
            return problem("more than " + std::to_string(m_limits.maxStack)
                + " values on the unpickler's stack (a crafted pickle)");
        m_stack.push_back(v);
        if (m_stack.size() > m_stackHigh) {
            m_stackHigh = m_stack.size();
            if (!m_builder.charge(sizeof(PickleValue)))
                return false;
        }
        return true;
    }

    bool Reader::popMark(std::uint64_t& from)
    {
        if (m_marks.empty())
            return problem(std::string(op::opcodeName(m_op)) + " without a MARK before it");
        from = m_marks.back();
        m_marks.pop_back();
        return true;
    }

    // LONG1 / LONG4: little-endian two's complement of n bytes, kept when it
    // fits 64 bits (wider bytes must only repeat the sign).
    bool Reader::longValue(std::uint64_t n)
    {
        if (!need(n))
            return false;
        const std::uint8_t* p = m_bytes.data() + m_pos;
        std::uint64_t bits = 0;
        const std::uint64_t low = n < 8 ? n : 8;
        for (std::uint64_t i = 0; i < low; ++i)
            bits |= std::uint64_t(p[i]) << (8 * i);
        const bool negative = n > 0 && (p[low - 1] & 0x80) != 0;
        if (negative && low < 8)
            bits |= ~std::uint64_t(0) << (8 * low);
        for (std::uint64_t i = low; i < n; ++i)
            if (p[i] != (negative ? 0xff : 0x00))
                return problem("an integer wider than 64 bits, which no memory snapshot holds");
        m_pos += n;
        return push(m_builder.integer(static_cast<std::int64_t>(bits)));
    }

    bool Reader::scalar(std::uint8_t opcode)
    {
        switch (opcode) {
        case op::kNone:
            return push(PickleValue::none());
        case op::kNewTrue:
            return push(PickleValue::boolean(true));
        case op::kNewFalse:
            return push(PickleValue::boolean(false));
        case op::kBinInt1:
            return need(1) && push(m_builder.integer(static_cast<std::int64_t>(readLE(1))));
        case op::kBinInt2:
            return need(2) && push(m_builder.integer(static_cast<std::int64_t>(readLE(2))));
        case op::kBinInt:
            return need(4)
                && push(m_builder.integer(static_cast<std::int32_t>(static_cast<std::uint32_t>(readLE(4)))));
        case op::kLong1:
            return need(1) && longValue(readLE(1));
        case op::kLong4: {
            if (!need(4))
                return false;
            const auto n = static_cast<std::int32_t>(static_cast<std::uint32_t>(readLE(4)));
            return n < 0 ? problem("LONG4 with a negative length") : longValue(static_cast<std::uint64_t>(n));
        }
        case op::kBinFloat: {
            if (!need(8))
                return false;
            std::uint64_t big = 0;
            for (int i = 0; i < 8; ++i)
                big = (big << 8) | m_bytes[m_pos++];
            return push(m_builder.floating(std::bit_cast<double>(big)));
        }
        default:
            return false;
        }
    }

    bool Reader::textValue(std::uint8_t opcode)
    {
        const bool isBytes = opcode == op::kShortBinBytes || opcode == op::kBinBytes
            || opcode == op::kBinBytes8 || opcode == op::kByteArray8;
        int lengthBytes = 8;
        if (opcode == op::kShortBinUnicode || opcode == op::kShortBinBytes)
            lengthBytes = 1;
        else if (opcode == op::kBinUnicode || opcode == op::kBinBytes)
            lengthBytes = 4;
        if (!need(static_cast<std::uint64_t>(lengthBytes)))
            return false;
        const std::uint64_t length = readLE(lengthBytes);
        if (!need(length))
            return false;
        return push(m_builder.text(isBytes ? PickleKind::Bytes : PickleKind::String, readBytes(length)));
    }

    bool Reader::memoOp(std::uint8_t opcode)
    {
        if (opcode == op::kMemoize || opcode == op::kBinPut || opcode == op::kLongBinPut) {
            std::uint64_t index = m_memo.size();
            if (opcode != op::kMemoize) {
                const int width = opcode == op::kBinPut ? 1 : 4;
                if (!need(static_cast<std::uint64_t>(width)))
                    return false;
                index = readLE(width);
            }
            if (m_stack.empty() || available() == 0)
                return problem(std::string(op::opcodeName(opcode)) + " with nothing on the stack");
            m_memo.put(index, m_stack.back());
            return m_builder.charge(2 * sizeof(PickleValue));
        }
        const int width = opcode == op::kBinGet ? 1 : 4;
        if (!need(static_cast<std::uint64_t>(width)))
            return false;
        const std::uint64_t index = readLE(width);
        const PickleValue* v = m_memo.get(index);
        if (v == nullptr)
            return problem("memo entry " + std::to_string(index) + " is read before it is written");
        return push(*v);
    }

    bool Reader::containerOp(std::uint8_t opcode)
    {
        std::uint64_t from = 0;
        switch (opcode) {
        case op::kEmptyList:
            return push(m_builder.openContainer(PickleKind::List));
        case op::kEmptyDict:
            return push(m_builder.openContainer(PickleKind::Dict));
        case op::kEmptyTuple:
            return push(m_builder.tuple({}));
        case op::kTuple1:
        case op::kTuple2:
        case op::kTuple3: {
            const std::uint64_t n = opcode - op::kTuple1 + 1u;
            if (available() < n)
                return problem(std::string(op::opcodeName(opcode)) + " with too few values on the stack");
            from = m_stack.size() - n;
            break;
        }
        case op::kAppend:
        case op::kSetItem: {
            const std::uint64_t n = opcode == op::kAppend ? 1 : 2;
            if (available() < n + 1)
                return problem(std::string(op::opcodeName(opcode)) + " with too few values on the stack");
            from = m_stack.size() - n;
            break;
        }
        default:
            if (!popMark(from))
                return false;
        }
        const std::span<const PickleValue> items(m_stack.data() + from, m_stack.size() - from);
        bool ok = true;
        if (opcode == op::kTuple || opcode == op::kTuple1 || opcode == op::kTuple2 || opcode == op::kTuple3) {
            const PickleValue t = m_builder.tuple(items);
            m_stack.resize(from);
            return push(t);
        }
        if (opcode == op::kList || opcode == op::kDict) {
            const PickleValue c =
                m_builder.openContainer(opcode == op::kList ? PickleKind::List : PickleKind::Dict);
            ok = !m_builder.failed() && m_builder.add(c, items);
            m_stack.resize(from);
            return ok && push(c);
        }
        // APPEND(S) / SETITEM(S): the container is the value below the items.
        if (from == 0 || (!m_marks.empty() && from <= m_marks.back()))
            return problem(std::string(op::opcodeName(opcode)) + " with no list or dict below its items");
        ok = m_builder.add(m_stack[from - 1], items);
        m_stack.resize(from);
        return ok;
    }

    bool Reader::stackOp(std::uint8_t opcode)
    {
        switch (opcode) {
        case op::kMark:
            m_marks.push_back(m_stack.size());
            return m_builder.charge(sizeof(std::uint64_t));
        case op::kPop:
            if (available() == 0)
                return problem("POP with nothing on the stack");
            m_stack.pop_back();
            return true;
        case op::kPopMark: {
            std::uint64_t from = 0;
            if (!popMark(from))
                return false;
            m_stack.resize(from);
            return true;
        }
        case op::kDup:
            if (available() == 0)
                return problem("DUP with nothing on the stack");
            return push(m_stack.back());
        default:
            return false;
        }
    }

    bool Reader::step(std::uint8_t opcode, bool& stop)
    {
        switch (opcode) {
        case op::kProto: {
            if (!need(1))
                return false;
            const auto protocol = static_cast<int>(readLE(1));
            if (protocol > kHighestProtocol)
                return problem("pickle protocol " + std::to_string(protocol)
                    + " is newer than this reader knows (it reads protocols 2-5)");
            if (protocol < kLowestProtocol)
                return problem("pickle protocol " + std::to_string(protocol)
                    + ", which memory snapshots never are (they are protocol 2-5)");
            return true;
        }
        case op::kFrame: // a length hint for buffered reading; the whole file is in memory
            if (!need(8))
                return false;
            return readLE(8) <= m_bytes.size() - m_pos
                || problem("truncated: a FRAME announces more bytes than the file has left");
        case op::kStop:
            if (available() == 0)
                return problem("STOP with nothing on the stack");
            m_result = m_stack.back();
            stop = true;
            return true;
        case op::kNone:
        case op::kNewTrue:
        case op::kNewFalse:
        case op::kBinInt:
        case op::kBinInt1:
        case op::kBinInt2:
        case op::kLong1:
        case op::kLong4:
        case op::kBinFloat:
            return scalar(opcode);
        case op::kShortBinUnicode:
        case op::kBinUnicode:
        case op::kBinUnicode8:
        case op::kShortBinBytes:
        case op::kBinBytes:
        case op::kBinBytes8:
        case op::kByteArray8:
            return textValue(opcode);
        case op::kMemoize:
        case op::kBinPut:
        case op::kLongBinPut:
        case op::kBinGet:
        case op::kLongBinGet:
            return memoOp(opcode);
        case op::kEmptyList:
        case op::kEmptyDict:
        case op::kEmptyTuple:
        case op::kList:
        case op::kDict:
        case op::kTuple:
        case op::kTuple1:
        case op::kTuple2:
        case op::kTuple3:
        case op::kAppend:
        case op::kAppends:
        case op::kSetItem:
        case op::kSetItems:
            return containerOp(opcode);
        case op::kMark:
        case op::kPop:
        case op::kPopMark:
        case op::kDup:
            return stackOp(opcode);
        default:
            break;
        }
        const char* name = op::opcodeName(opcode);
        if (name == nullptr)
            return problem("byte " + hexByte(opcode) + " is not a pickle opcode (corrupt data)");
        if (op::namesOrCallsCode(opcode))
            return problem(std::string("opcode ") + name
                + " refers to Python code or objects, which a memory snapshot never does; refused, "
                  "nothing was run");
        return problem(std::string("opcode ") + name + " is not used by memory snapshots (not supported)");
    }

    Result<PickleDocument> Reader::run()
    {
        if (m_bytes.empty())
            return Error { ErrorCode::EmptyFile, "the file is empty", m_path, std::nullopt };
        if (m_bytes[0] != op::kProto)
            return Error { ErrorCode::WrongType, notAPickle(m_bytes), m_path, std::nullopt };
        bool stop = false;
        while (!stop) {
            if (m_pos >= m_bytes.size()) {
                m_opStart = m_pos;
                return fail("truncated: the pickle ends without its STOP opcode");
            }
            m_opStart = m_pos;
            if (m_file != nullptr && m_pos >= m_nextRelease) {
                m_file->consumed(m_pos);
                m_nextRelease = m_pos + kReleaseStep;
            }
            m_op = m_bytes[m_pos++];
            if (!step(m_op, stop) || m_builder.failed()) {
                const std::string& what = m_problem.empty() ? m_builder.problem() : m_problem;
                const ErrorCode code = m_builder.overBudget() ? ErrorCode::TooLarge : ErrorCode::WrongType;
                return Error { code, what, m_path, m_opStart };
            }
        }
        return m_builder.finish(m_result);
    }

} // namespace

Result<PickleDocument> readPickle(
    std::span<const std::uint8_t> bytes, const std::string& path, const PickleLimits& limits)
{
    Reader reader(bytes, path, limits);
    return reader.run();
}

Result<PickleDocument> readPickleFile(
    const std::string& path, const PickleLimits& limits, std::uint64_t maxFileBytes)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return Error { ErrorCode::WrongType, "is a folder, not a memory snapshot file", path, std::nullopt };
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in)
        return Error { ErrorCode::Unreadable, "cannot open the file", path, std::nullopt };
    const std::streamoff size = in.tellg();
    if (size < 0)
        return Error { ErrorCode::Unreadable, "cannot read the file", path, std::nullopt };
    if (static_cast<std::uint64_t>(size) > maxFileBytes)
        return Error { ErrorCode::TooLarge,
            "the file is " + std::to_string(size >> 20) + " MiB, more than the "
                + std::to_string(maxFileBytes >> 20) + " MiB a memory snapshot is read up to",
            path, std::nullopt };
    in.close();
    PickleFile file;
    if (const std::string problem = file.open(path, static_cast<std::uint64_t>(size)); !problem.empty())
        return Error { ErrorCode::Unreadable, problem, path, std::nullopt };
    Reader reader(file.bytes(), path, limits, &file);
    return reader.run();
}

} // namespace ks::core
