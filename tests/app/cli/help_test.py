#!/usr/bin/env python3
"""The command line a user expects: every subcommand answers --help and -h with
its usage on stdout and exit 0, `--version` names the version, an unknown
option names the command and the nearest valid option (exit 2), an unknown
command suggests the nearest one, and the man page holds every command."""
import sys

from cli_test_support import parse_args, run


def main():
    a = parse_args("--man")

    code, overview, _ = run(a.cli, "--help")
    assert code == 0, code
    commands = [line.split()[0] for line in overview.split("commands:\n", 1)[1].splitlines()
                if line.startswith("  ") and not line.startswith("   ")]
    assert {"info", "analyze", "critical-path", "check", "synth"} <= set(commands), commands

    for command in commands:
        for flag in ("--help", "-h"):
            code, out, err = run(a.cli, command, flag)
            assert code == 0, (command, flag, code, err)
            assert out.startswith("usage: kinetoscope-cli " + command), (command, out)
            assert err == "", (command, err)
        code, out, _ = run(a.cli, "help", command)
        assert code == 0 and out.startswith("usage: kinetoscope-cli " + command), (command, out)

    code, out, _ = run(a.cli, "--version")
    assert code == 0 and out.startswith("kinetoscope-cli ") and out.strip() != "kinetoscope-cli", out

    code, out, err = run(a.cli, "collectives", "x.json", "--formt", "csv")
    assert code == 2, code
    assert "kinetoscope-cli collectives: unknown option --formt (did you mean --format?)" in err, err

    code, out, err = run(a.cli, "anlyze", "x.json")
    assert code == 2, code
    assert "unknown command 'anlyze' (did you mean 'analyze'?)" in err, err

    code, out, err = run(a.cli, "info", "x.json", "--threads", "many")
    assert code == 2 and "--threads needs a number" in err, (code, err)

    with open(a.man) as f:
        man = f.read()
    assert man.startswith(".TH KINETOSCOPE-CLI 1"), man[:80]
    for command in commands:
        assert ".SS " + command + "\n" in man, command
    print("ok:", len(commands), "commands answer --help")
    return 0


if __name__ == "__main__":
    sys.exit(main())
