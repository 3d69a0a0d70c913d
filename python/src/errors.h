#pragma once

// The module's exceptions: kinetoscope.TraceError and its subclasses, raised
// with the line the CLI prints for the same problem. The bindings throw
// KsError (a C++ exception the module translates), never let one of the core's
// Results through unchecked, and never crash the interpreter on bad input.

#include "core/common/result.h"

#include <pybind11/pybind11.h>
#include <stdexcept>
#include <string>

namespace ks::python {

// Which Python class a problem is raised as.
enum class ErrorClass : std::uint8_t
{
    Load, // a file that cannot be read or is not a Kineto trace (LoadError)
    NotApplicable, // an analysis that has no result on these traces (NotApplicableError)
    InvalidArgument, // a keyword argument out of range or unknown (InvalidArgumentError, a ValueError)
    OutOfMemory, // TraceMemoryError (a MemoryError)
    Other, // TraceError itself
};

class KsError : public std::runtime_error
{
public:
    KsError(ErrorClass kind, const std::string& message)
        : std::runtime_error(message)
        , m_kind(kind)
    {
    }

    ErrorClass kind() const { return m_kind; }

private:
    ErrorClass m_kind;
};

// The class of a core error (a load's: Load; cancelled never gets here).
ErrorClass errorClassOf(core::ErrorCode code);

[[noreturn]] void throwError(const core::Error& error);
[[noreturn]] void throwInvalidArgument(const std::string& message);
[[noreturn]] void throwNotApplicable(const std::string& message);

// Creates the exception classes in `m` and the translator that raises them.
void registerErrors(pybind11::module_& m);

} // namespace ks::python
