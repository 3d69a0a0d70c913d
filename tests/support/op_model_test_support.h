#pragma once

// Calling one perf model directly, as the efficiency tests do: an op's args
// from the profiler's JSON fields, and the model's estimate or skip reason.

#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"

#include <QtGlobal>

#include <optional>
#include <string>
#include <variant>

namespace ks::test {

inline const core::ModelReading kOursReading {};
inline const core::ModelReading kTraceLensReading { true };

// The args of a call with these "Input Dims", "Input type", "Concrete Inputs" and "Input Strides"
// (JSON texts).
inline core::OpArgs opArgsOf(const std::string& dims, const std::string& types,
    const std::string& concrete = "[]", const std::string& strides = "[]")
{
    const core::ParsedArgs parsed = core::parseOpArgs(R"({"Input Dims": )" + dims + R"(, "Input type": )"
        + types + R"(, "Input Strides": )" + strides + R"(, "Concrete Inputs": )" + concrete + "}");
    if (!parsed.args)
        qFatal("args did not parse: %s", dims.c_str());
    return *parsed.args;
}

// The op's model's result; with `backward`, its backward model's (the backward rows).
inline core::ModelResult opModelResult(
    const char* op, const core::OpArgs& args, const core::ModelReading& reading, bool backward = false)
{
    const core::OpModel* model = core::findOpModel(op);
    if (!model || (backward && !model->backward))
        qFatal("no model for %s", op);
    return backward ? model->backward(op, args, reading) : model->model(op, args, reading);
}

// The estimate; a skip stops the test there, naming why.
inline core::PerfEstimate opModelled(
    const char* op, const core::OpArgs& args, const core::ModelReading& reading, bool backward = false)
{
    const core::ModelResult r = opModelResult(op, args, reading, backward);
    if (!std::holds_alternative<core::PerfEstimate>(r))
        qFatal(
            "%s: skipped (%s)", op, std::string(core::skipReasonText(std::get<core::SkipReason>(r))).c_str());
    return std::get<core::PerfEstimate>(r);
}

inline std::optional<core::SkipReason> opSkipOf(
    const char* op, const core::OpArgs& args, const core::ModelReading& reading)
{
    const core::ModelResult r = opModelResult(op, args, reading);
    if (const auto* why = std::get_if<core::SkipReason>(&r))
        return *why;
    return std::nullopt;
}

// The short names the efficiency tests call models by: `using namespace ks::test::op_model_names;`.
namespace op_model_names {

    inline const core::ModelReading& kOurs = kOursReading;
    inline const core::ModelReading& kTraceLens = kTraceLensReading;

    inline core::OpArgs argsOf(const std::string& dims, const std::string& types,
        const std::string& concrete = "[]", const std::string& strides = "[]")
    {
        return opArgsOf(dims, types, concrete, strides);
    }

    inline core::PerfEstimate modelled(
        const char* op, const core::OpArgs& args, const core::ModelReading& reading, bool backward = false)
    {
        return opModelled(op, args, reading, backward);
    }

    inline std::optional<core::SkipReason> skipOf(
        const char* op, const core::OpArgs& args, const core::ModelReading& reading)
    {
        return opSkipOf(op, args, reading);
    }

} // namespace op_model_names

} // namespace ks::test
