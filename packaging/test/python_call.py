"""The package test's Python check: import kinetoscope, open a trace folder, print one
analysis (the temporal breakdown, in the default mode: on this trace HTA's own
assertion fails, so `hta_compat=True` raises NotApplicableError) and one call of the HTA
layer. Run by
package_test.sh with the build tree's module and by in_root.sh with the installed one;
the two outputs must be equal."""
import sys

import kinetoscope
from kinetoscope.hta import TraceAnalysis

trace = kinetoscope.open(sys.argv[1], progress=False)
print("ranks", trace.ranks)
print(trace.temporal_breakdown().to_string())
print(TraceAnalysis(trace_dir=sys.argv[1], progress=False).get_profiler_steps())
