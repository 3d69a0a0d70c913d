"""Bad inputs raise kinetoscope's exceptions with the CLI's one-line message, never a
crash; long work reports progress and stops on Ctrl+C or when the callback raises."""
import gzip
import os
import signal
import subprocess
import threading
import time

import pytest

import kinetoscope
from conftest import CLI, loaded, need_cli, trace_folder


def cli_error(*args):
    run = subprocess.run([need_cli(), *args], capture_output=True, text=True)
    assert run.returncode != 0
    return run.stderr.strip().splitlines()[-1]


def test_missing_file_raises_load_error_with_the_cli_line(tmp_path):
    missing = str(tmp_path / "nope.json")
    with pytest.raises(kinetoscope.LoadError) as raised:
        kinetoscope.open(missing, progress=False)
    assert str(raised.value) in cli_error("info", missing)
    assert isinstance(raised.value, kinetoscope.TraceError)


@pytest.mark.parametrize("content", [b"", b"not json at all", b'{"traceEvents": 5}', b'{"traceEvents": [{"ph": "X"'])
def test_bad_files_raise_load_error(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(kinetoscope.TraceError) as raised:
        kinetoscope.open(str(path), progress=False)
    message = str(raised.value)
    assert "\n" not in message and message
    if CLI:
        assert message in cli_error("info", str(path))


def test_truncated_gzip(tmp_path):
    whole = gzip.compress(b'{"traceEvents": [' + b'{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":1},' * 1000 + b"]}")
    path = tmp_path / "cut.json.gz"
    path.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(kinetoscope.LoadError):
        kinetoscope.open(str(path), progress=False)


def test_a_bad_file_beside_good_ones_is_a_warning(tmp_path):
    good = trace_folder("cpu_only")
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    files = [os.path.join(good, f) for f in os.listdir(good) if f.endswith((".json", ".gz"))]
    with pytest.warns(UserWarning, match="bad.json"):
        trace = kinetoscope.open(files + [str(bad)], progress=False)
    assert trace.ranks


def test_bad_arguments_raise_invalid_argument():
    trace = loaded("two_ranks_sampled")
    with pytest.raises(kinetoscope.InvalidArgumentError):
        trace.kernel_breakdown(duration_ratio=2.0)
    with pytest.raises(ValueError):  # InvalidArgumentError is a ValueError
        trace.output("no_such_output")
    with pytest.raises(kinetoscope.InvalidArgumentError):
        trace.events(rank=99)
    with pytest.raises(kinetoscope.InvalidArgumentError):
        trace.operators(by="colour")
    with pytest.raises(kinetoscope.InvalidArgumentError):
        trace.job_critical_path(what_if="no equals sign")
    with pytest.raises(kinetoscope.InvalidArgumentError):
        trace.events(kind="tpu")


def test_not_applicable_raises_with_the_reason():
    trace = loaded("cpu_only")
    with pytest.raises(kinetoscope.NotApplicableError) as raised:
        trace.critical_path(annotation="no such annotation anywhere")
    assert "critical_path_analysis" in str(raised.value)


def test_progress_is_reported():
    seen = []
    kinetoscope.open(trace_folder("ns_resolution"), progress=lambda stage, done, total: seen.append((stage, done, total)))
    trace = loaded("ns_resolution")
    trace.temporal_breakdown(progress=lambda *a: seen.append(a))
    assert seen, "no progress report"
    assert all(isinstance(s, str) and d <= max(t, d) for s, d, t in seen)


@pytest.fixture(scope="module")
def big_trace(tmp_path_factory):
    """A synthetic trace large enough that loading it takes a while (kinetoscope-cli synth)."""
    out = tmp_path_factory.mktemp("big")
    run = subprocess.run([need_cli(), "synth", "--ranks", "1", "--size-mb", "60", "--seed", "3", "--out", str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return str(out)


def test_an_exception_from_the_callback_stops_the_load(big_trace):
    class Stop(Exception):
        pass

    def stop(stage, done, total):
        raise Stop()

    started = time.monotonic()
    with pytest.raises(Stop):
        kinetoscope.open(big_trace, progress=stop)
    assert time.monotonic() - started < 60


def test_ctrl_c_interrupts_a_load(big_trace):
    started = time.monotonic()
    whole = time.monotonic()
    kinetoscope.open(big_trace, progress=False)
    whole = time.monotonic() - whole
    timer = threading.Timer(min(0.05, whole / 4), lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    interrupted = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        kinetoscope.open(big_trace, progress=False)
        time.sleep(5)  # were the load not interrupted, the signal would land here, later
    assert time.monotonic() - interrupted < max(whole, 1.0) + 0.5
    timer.cancel()
    assert started
