#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// The recorded inputs of one operator call (PyTorch's record_shapes=True), as
// the perf models read them: "Input Dims", "Input type", "Input Strides" and
// "Concrete Inputs", one entry per argument of the op's schema.
struct OpArgs
{
    // Per argument: the tensor's sizes; nullopt when the entry is not a flat
    // list of integers (a TensorList, or something malformed). A scalar or an
    // absent optional tensor is an empty list.
    std::vector<std::optional<std::vector<std::int64_t>>> dims;
    std::vector<std::string> types; // "c10::BFloat16", "float", "Scalar", ""
    std::vector<std::vector<std::int64_t>> strides; // flat; empty when absent
    std::vector<std::string> concrete; // "True", "[-1]", "0.125", ""
    // The same three lists as text, written as PyTorch prints them ("[[64, 256], []]"),
    // for display and for grouping calls.
    std::string dimsText;
    std::string typesText;
    std::string stridesText;
    // The step annotation around the call (the user_annotation carrying the batch's query and
    // key token sums: iteration_annotation.h), filled for the models that read it (vLLM's and
    // AITER's inference attention); "" when none or not read.
    std::string annotation;

    bool hasDims(std::size_t i) const { return i < dims.size() && dims[i].has_value(); }

    // The sizes of argument i; empty when absent or not a flat list.
    const std::vector<std::int64_t>& shape(std::size_t i) const;

    std::string_view type(std::size_t i) const { return i < types.size() ? types[i] : std::string_view(); }

    std::string_view concreteAt(std::size_t i) const
    {
        return i < concrete.size() ? concrete[i] : std::string_view();
    }
};

enum class ArgsProblem : std::uint8_t
{
    NoShapes, // no "Input Dims" at all: recorded without record_shapes=True
    Malformed, // "Input Dims" or "Input type" is not a list, or the args are not JSON
};

struct ParsedArgs
{
    std::optional<OpArgs> args;
    ArgsProblem problem = ArgsProblem::NoShapes; // when args is empty
};

// Reads events' args objects (their JSON text as written in the file) with one
// simdjson parser and one padded buffer, allocated once: a parser per call spent
// more on its buffers than on the few hundred bytes it parsed.
class OpArgsParser
{
public:
    OpArgsParser();
    ~OpArgsParser();
    OpArgsParser(const OpArgsParser&) = delete;
    OpArgsParser& operator=(const OpArgsParser&) = delete;

    ParsedArgs parse(std::string_view argsJson);

private:
    struct Buffers;
    std::unique_ptr<Buffers> m_buffers;
};

// One event's args object: OpArgsParser for a single call.
ParsedArgs parseOpArgs(std::string_view argsJson);

// Concrete Inputs hold Python's str() of a value: "True"/"False", "[1, 1]", "3".
std::optional<bool> concreteBool(std::string_view text);
std::optional<std::vector<std::int64_t>> concreteIntList(std::string_view text);
std::optional<std::int64_t> concreteInt(std::string_view text);
// Python's float() of the text ("2048", "0.1"); nullopt when it is not a number.
std::optional<double> concreteDouble(std::string_view text);

// The product of sizes; 1 for an empty shape (a scalar), as numpy's prod(()).
double elementCount(const std::vector<std::int64_t>& shape);

} // namespace ks::core
