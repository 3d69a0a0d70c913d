"""What the conformance scripts share: their common arguments and how they end."""
import argparse
import os


def folder_arguments(description=None, extra=None):
    """Parses --cli, --shared and --folder (plus what `extra(parser)` adds); returns
    (args, traces folder, reference folder), or None after printing SKIP when either is absent."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--shared", required=True)
    parser.add_argument("--folder", required=True, help="name of a folder in shared/traces")
    if extra:
        extra(parser)
    args = parser.parse_args()
    traces = os.path.join(args.shared, "traces", args.folder)
    reference = os.path.join(args.shared, "reference", args.folder)
    if not os.path.isdir(traces) or not os.path.isdir(reference):
        print(f"SKIP: {traces} or {reference} is absent")
        return None
    return args, traces, reference


def verdict(name, problems, detail=""):
    """Prints each problem and the one-line verdict; the exit code."""
    for p in problems:
        print(f"  - {p}")
    print(f"{name}: {'FAIL' if problems else 'ok'}{detail}")
    return 1 if problems else 0
