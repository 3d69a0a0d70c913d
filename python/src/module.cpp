// kinetoscope._native: the bindings the `kinetoscope` package is written over.
#include "python/src/bindings.h"
#include "python/src/errors.h"

namespace py = pybind11;

PYBIND11_MODULE(_native, m)
{
    m.doc() = "Kinetoscope's core: loading PyTorch profiler traces and their analyses (use the kinetoscope "
              "package)";
    ks::python::registerErrors(m);
    ks::python::SessionClass session(m, "Session", "One load and its analyses (kinetoscope.open).");
    ks::python::bindTrace(m, session);
    ks::python::bindAnalyses(m, session);
    ks::python::bindJobAnalyses(m, session);
    ks::python::bindSnapshots(m);
}
