#pragma once

// What the module's binding files share: the loaded session a Python Trace
// holds, how a request runs (the threads, the cancel token), and the keyword
// options every analysis takes, read as the CLI reads its flags.

#include "core/analysis/frame/analysis_options.h"
#include "core/session/trace_analyses.h"

#include <memory>
#include <pybind11/pybind11.h>

namespace ks::python {

// One load (kinetoscope.open), its analyses computed once and kept: the same
// core::TraceAnalyses every CLI command asks.
struct Session
{
    std::shared_ptr<core::TraceAnalyses> analyses;
    unsigned threads = 0; // 0: every core

    const core::TraceSet& traces() const { return analyses->traces(); }
};

// How a request of the session runs: on the session's threads, cancelled by `cancel`.
core::SessionWork sessionWork(const Session& session, const core::CancelToken& cancel);

// The keyword options of the analyses (hta_compat, ranks, iterations, HTA's
// arguments: see kinetoscope/_options.py), checked as the CLI checks its flags;
// an unknown or out-of-range one raises InvalidArgumentError.
core::AnalysisOptions analysisOptionsOf(const pybind11::dict& options);

// The module's parts, each adding its functions and the Session's methods.
using SessionClass = pybind11::class_<Session, std::shared_ptr<Session>>;
void bindTrace(pybind11::module_& m, SessionClass& session);
void bindAnalyses(pybind11::module_& m, SessionClass& session);
void bindJobAnalyses(pybind11::module_& m, SessionClass& session);
void bindSnapshots(pybind11::module_& m); // PyTorch memory snapshots (no session)

} // namespace ks::python
