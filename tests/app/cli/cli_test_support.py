"""What the CLI test scripts share: their command line and running kinetoscope-cli.

CTest runs each script by path, so Python finds this module beside it."""
import argparse
import subprocess


def parse_args(*options):
    """--cli (the kinetoscope-cli under test) and each of `options` ("--shared",
    "--man", ...), all required: the paths CMake passes."""
    ap = argparse.ArgumentParser()
    for option in ("--cli", *options):
        ap.add_argument(option, required=True)
    return ap.parse_args()


def run(cli, *args):
    """kinetoscope-cli with `args`: (exit code, stdout, stderr)."""
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def run_expecting(cli, *args, code=0):
    """kinetoscope-cli with `args`, asserting it exits with `code`: the finished process."""
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    assert p.returncode == code, (args, p.returncode, p.stdout[-2000:], p.stderr)
    return p
