#!/usr/bin/env python3
"""The JSON parser's two kernels (issue 26): the Haswell copy and the x86-64
baseline one, forced with KS_PARSER_KERNEL=baseline, read every shared trace
and a synthetic one to the same events, diagnostics and operator table, and
`info --verbose` names the kernel that ran: Haswell exactly where the CPU has
what it needs. Where qemu-x86_64 (Debian: qemu-user) is installed, the CLI also
runs on emulated CPUs: qemu64 (the x86-64 baseline, not even SSE4.2), where a
build with any AVX2 outside the Haswell copy would die of SIGILL, and Haswell."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from cli_test_support import parse_args, run_expecting


def cpu_has_haswell():
    """AVX2, BMI1/2, FMA, POPCNT and PCLMUL, as /proc/cpuinfo lists them."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return False
    return {"avx2", "bmi1", "bmi2", "fma", "popcnt", "pclmulqdq"} <= set(flags)


def without_memory(value):
    """The JSON without bytes_in_memory, which follows buffer capacities, not the events."""
    if isinstance(value, dict):
        return {k: without_memory(v) for k, v in value.items() if k != "bytes_in_memory"}
    if isinstance(value, list):
        return [without_memory(v) for v in value]
    return value


def run_with_kernel(cli, kernel, *args):
    env = dict(os.environ)
    env.pop("KS_PARSER_KERNEL", None)
    if kernel:
        env["KS_PARSER_KERNEL"] = kernel
    p = subprocess.run([cli, *args], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def run_on_emulated_cpu(cli, cpu, path):
    """`info PATH --verbose` under qemu-x86_64 -cpu CPU: (exit code, stdout, stderr)."""
    env = dict(os.environ)
    env.pop("KS_PARSER_KERNEL", None)
    p = subprocess.run(["qemu-x86_64", "-cpu", cpu, cli, "info", path, "--verbose"], capture_output=True,
                       text=True, env=env, timeout=600)
    return p.returncode, p.stdout, p.stderr


def check_emulated_cpus(cli, path):
    if not shutil.which("qemu-x86_64"):
        print("note: qemu-x86_64 not found (Debian: qemu-user): emulated CPUs not checked")
        return
    with open(cli, "rb") as binary:
        if b"__asan_init" in binary.read():
            # ASan's shadow memory cannot be mapped under qemu-user: the sanitizer build
            # checks both kernels natively above; the package test checks the emulation.
            print("note: an AddressSanitizer build: emulated CPUs not checked")
            return
    _, native, _ = run_with_kernel(cli, None, "info", path)
    for cpu, kernel in (("qemu64", "baseline"), ("Haswell", "haswell")):
        code, out, err = run_on_emulated_cpu(cli, cpu, path)
        if code != 0:
            sys.exit(f"FAIL: kinetoscope-cli info on an emulated {cpu} CPU exited {code}: {err[-500:]!r}")
        if f"parser kernel {kernel}" not in err:
            sys.exit(f"FAIL: on an emulated {cpu} CPU the {kernel} kernel was expected: {err[-500:]!r}")
        if out != native:
            sys.exit(f"FAIL: info on an emulated {cpu} CPU differs from the native run")
        print(f"emulated {cpu} CPU: the {kernel} kernel, same info as natively")


def main():
    args = parse_args("--shared")
    cli = args.cli
    expected = "haswell" if cpu_has_haswell() else "baseline"
    with tempfile.TemporaryDirectory() as tmp:
        synth = os.path.join(tmp, "synth")
        run_expecting(cli, "synth", "--ranks", "2", "--size-mb", "3", "--seed", "7", "--out", synth)
        inputs = [synth]
        traces = os.path.join(args.shared, "traces")
        if os.path.isdir(traces):
            inputs += sorted(os.path.join(traces, d) for d in os.listdir(traces)
                             if os.path.isdir(os.path.join(traces, d)))
        else:
            print(f"note: {traces} is absent; the synthetic job only")
        for path in inputs:
            outputs = {}
            for kernel in (None, "baseline"):
                code, out, err = run_with_kernel(cli, kernel, "info", path, "--json", "--verbose")
                ran = (kernel or expected)
                if f"parser kernel {ran}" not in err:
                    sys.exit(f"FAIL: {path} with KS_PARSER_KERNEL={kernel}: expected the {ran} kernel: {err!r}")
                ops = run_with_kernel(cli, kernel, "ops", path, "--format", "csv")
                outputs[kernel] = (code, without_memory(json.loads(out)), ops)
            if outputs[None] != outputs["baseline"]:
                sys.exit(f"FAIL: {path}: the {expected} and the baseline kernel read different traces")
            events = sum(r.get("events", 0) for r in outputs[None][1].get("ranks", []))
            print(f"{os.path.basename(path)}: same info and ops from both kernels ({events} events)")
        check_emulated_cpus(cli, synth)
    print(f"PASS (this CPU runs the {expected} kernel by default)")


if __name__ == "__main__":
    main()
