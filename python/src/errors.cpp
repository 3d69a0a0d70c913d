#include "python/src/errors.h"

namespace py = pybind11;

namespace ks::python {

namespace {

    // The classes, made once when the module is imported (a module's state, not the core's).
    PyObject* g_traceError = nullptr;
    PyObject* g_loadError = nullptr;
    PyObject* g_notApplicableError = nullptr;
    PyObject* g_invalidArgumentError = nullptr;
    PyObject* g_memoryError = nullptr;

    PyObject* makeClass(py::module_& m, const char* name, const char* doc, py::tuple bases)
    {
        const std::string qualified = std::string("kinetoscope.") + name;
        PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
        if (!cls)
            throw py::error_already_set();
        m.add_object(name, py::handle(cls));
        return cls;
    }

    PyObject* classOf(ErrorClass kind)
    {
        switch (kind) {
        case ErrorClass::Load:
            return g_loadError;
        case ErrorClass::NotApplicable:
            return g_notApplicableError;
        case ErrorClass::InvalidArgument:
            return g_invalidArgumentError;
        case ErrorClass::OutOfMemory:
            return g_memoryError;
        case ErrorClass::Other:
            break;
        }
        return g_traceError;
    }

} // namespace

ErrorClass errorClassOf(core::ErrorCode code)
{
    switch (code) {
    case core::ErrorCode::NotApplicable:
        return ErrorClass::NotApplicable;
    case core::ErrorCode::InvalidArgument:
        return ErrorClass::InvalidArgument;
    case core::ErrorCode::OutOfMemory:
        return ErrorClass::OutOfMemory;
    case core::ErrorCode::Cancelled:
        return ErrorClass::Other;
    default:
        return ErrorClass::Load;
    }
}

void throwError(const core::Error& error)
{
    throw KsError(errorClassOf(error.code), error.describe());
}

void throwInvalidArgument(const std::string& message)
{
    throw KsError(ErrorClass::InvalidArgument, message);
}

void throwNotApplicable(const std::string& message)
{
    throw KsError(ErrorClass::NotApplicable, message);
}

void registerErrors(py::module_& m)
{
    g_traceError =
        makeClass(m, "TraceError", "A trace could not be loaded or analysed; the message is the CLI's line.",
            py::make_tuple(py::handle(PyExc_Exception)));
    const py::handle base(g_traceError);
    g_loadError = makeClass(
        m, "LoadError", "A file that cannot be read or is not a Kineto trace.", py::make_tuple(base));
    g_notApplicableError = makeClass(m, "NotApplicableError",
        "The analysis has no result on these traces (HTA raises or returns None there).",
        py::make_tuple(base));
    g_invalidArgumentError =
        makeClass(m, "InvalidArgumentError", "An argument out of range or unknown (also a ValueError).",
            py::make_tuple(base, py::handle(PyExc_ValueError)));
    g_memoryError =
        makeClass(m, "TraceMemoryError", "Not enough memory for the load or analysis (also a MemoryError).",
            py::make_tuple(base, py::handle(PyExc_MemoryError)));
    py::register_exception_translator([](std::exception_ptr failure) {
        try {
            if (failure)
                std::rethrow_exception(failure);
        } catch (const KsError& e) {
            PyErr_SetString(classOf(e.kind()), e.what());
        } catch (const std::bad_alloc&) {
            PyErr_SetString(g_memoryError, "not enough memory");
        }
    });
}

} // namespace ks::python
