#!/usr/bin/env bash
# Kinetoscope developer entry point (Debian 12).
#   bash dev.sh run    install what is missing, build the app and the CLI (Release), open the app on
#                      a generated sample
#   bash dev.sh test   install what is missing, check formatting, build, run every test
#   bash dev.sh format reformat every C++ file with clang-format (the check `test` runs)
#   bash dev.sh lint [FILE.cpp...]  clang-tidy (.clang-tidy's checks) over core/ and app/cli/
#                      (or the given files); exits 1 on any finding
#   bash dev.sh sanitize  core, CLI and their tests under ASan+UBSan (clang, build-sanitize):
#                         the tests, the CLI over every shared trace, each fuzz target briefly
#   bash dev.sh fuzz [SECONDS]  build the libFuzzer targets (fuzz/) and run each SECONDS (default 60)
#   bash dev.sh package-test  build the .debs (reusing the build of `test`), lintian and the desktop
#                      metadata validators on them, then install and run them in a fresh Debian 12
#                      root (mmdebstrap; packaging/test/package_test.sh)
# Environment: BUILD_DIR (default build), SANITIZE_DIR (default build-sanitize),
# FUZZ_DIR (default build-fuzz: the fuzzers with coverage instrumentation),
# JOBS (default: all cores), CI=true adds -Werror.
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${BUILD_DIR:-build}
SANITIZE_DIR=${SANITIZE_DIR:-build-sanitize}
FUZZ_DIR=${FUZZ_DIR:-build-fuzz}
JOBS=${JOBS:-$(nproc)}
PACKAGES=(build-essential cmake ninja-build pkg-config git python3
          qt6-base-dev qt6-svg-dev libqcustomplot-dev libsimdjson-dev zlib1g-dev libisal-dev
          libsqlite3-dev libopenmpi-dev openmpi-bin
          libgl-dev xvfb xauth clang-format clang-tidy ccache clang-14 libfuzzer-14-dev
          pybind11-dev python3-dev python3-numpy python3-pandas python3-pytest jupyter-nbconvert python3-ipykernel)
# What package-test needs besides: the root builder, the package checker, the validators,
# an emulator of older x86-64 CPUs.
PACKAGE_TEST_PACKAGES=(mmdebstrap lintian desktop-file-utils appstream shared-mime-info qemu-user)

# install_missing [PACKAGE...]: PACKAGES and these.
install_missing() {
    local missing=()
    for p in "${PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# configure_and_build [TARGET...]: the Release build; with targets, only those
# (and what they link), as `run` builds only what it opens.
configure_and_build() {
    local werror=OFF
    [ "${CI:-}" = "true" ] && werror=ON
    local launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKS_WERROR=$werror "${launcher[@]}"
    local targets=()
    [ $# -gt 0 ] && targets=(--target "$@")
    cmake --build "$BUILD_DIR" -j "$JOBS" "${targets[@]}"
}

# The test executables precompile Qt's headers (tests/CMakeLists.txt); ccache
# caches such compiles only when told the precompiled header's macros and
# timestamps are safe to ignore (they are: CMake rebuilds the header when its
# inputs change).
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}

# The sanitizer build: clang, ASan+UBSan (any UB aborts), the fuzz targets,
# no GUI, no benchmarks, no MPI; -O1 with line tables keeps it quick to build
# and the reports readable (test code itself builds at -O0: tests/CMakeLists.txt).
# configure_sanitize DIR COVERAGE: COVERAGE=ON instruments the core for the
# fuzzers (dev.sh fuzz, in its own folder); the CI step leaves it OFF, which
# makes every test under the sanitizers faster to build and to run.
configure_sanitize() {
    local launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S . -B "$1" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS_RELEASE="-O1 -gline-tables-only" -DKS_SANITIZE=ON -DKS_BUILD_FUZZERS=ON \
        -DKS_FUZZ_COVERAGE="$2" -DKS_BUILD_GUI=OFF -DKS_BUILD_BENCH=OFF -DKS_WITH_MPI=OFF -DKS_WERROR=OFF \
        "${launcher[@]}" >/dev/null
}

# A sanitizer report ends the program with exit code 86, which no command of
# ours uses, so a report is never mistaken for an ordinary failure.
export_sanitizer_options() {
    export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86:detect_leaks=1:abort_on_error=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=86:print_stacktrace=1:halt_on_error=1}
}

FUZZERS=(fuzz_events fuzz_load_json fuzz_load_gzip fuzz_snapshot)

# Seeds for a target: fuzz/corpus/json (plain JSON), fuzz/corpus/gzip or
# fuzz/corpus/pickle (memory snapshots: hand-made and hostile ones; the real
# snapshots of ../shared/snapshots are added by extra_seeds, never copied here).
seed_folder() {
    case "$1" in
    fuzz_load_gzip) echo fuzz/corpus/gzip ;;
    fuzz_snapshot) echo fuzz/corpus/pickle ;;
    *) echo fuzz/corpus/json ;;
    esac
}

# The dictionary of a target's tokens: Kineto's keys, or pickle opcodes and a snapshot's keys.
dict_file() {
    case "$1" in
    fuzz_snapshot) echo fuzz/pickle.dict ;;
    *) echo fuzz/kineto.dict ;;
    esac
}

# Seed folders read from ../shared (never copied into the repository).
extra_seeds() {
    if [ "$1" = fuzz_snapshot ] && [ -d ../shared/snapshots ]; then
        echo ../shared/snapshots
    fi
}

# run_fuzzers DIR SECONDS_EACH [libFuzzer options...]: each target of build
# folder DIR grows its own corpus under DIR/fuzz-corpus from the committed seeds; a finding
# (crash, sanitizer report, leak, timeout, out of memory) is saved under
# DIR/fuzz-findings and fails the run.
run_fuzzers() {
    local dir=$1 seconds=$2
    shift 2
    local failed=0 target
    mkdir -p "$dir/fuzz-findings"
    for target in "${FUZZERS[@]}"; do
        local corpus="$dir/fuzz-corpus/$target"
        mkdir -p "$corpus"
        echo "== $target: ${seconds}s"
        # shellcheck disable=SC2046 # extra_seeds prints nothing or one folder
        if ! "$dir/fuzz/$target" "$corpus" "$(seed_folder "$target")" $(extra_seeds "$target") \
            -dict="$(dict_file "$target")" \
            -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=262144 \
            -artifact_prefix="$dir/fuzz-findings/$target-" -print_final_stats=1 "$@" \
            >"$dir/fuzz-findings/$target.log" 2>&1; then
            failed=1
            grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$dir/fuzz-findings/$target.log" | head -20 >&2
            echo "$target found a problem (log: $dir/fuzz-findings/$target.log)." \
                "Replay: $dir/fuzz/$target FILE; keep FILE in tests/data/fuzz/${target#fuzz_}/" >&2
        else
            grep -E "stat::number_of_executed_units|cov:" "$dir/fuzz-findings/$target.log" | tail -2
        fi
    done
    return $failed
}

# Every tracked C++ file; clang-format 14 (Debian 12) is the reference version.
cpp_files() {
    git ls-files '*.cpp' '*.h'
}

check_format() {
    local bad
    bad=$(cpp_files | xargs clang-format --dry-run 2>&1 | grep -oE '^[^:]+\.(cpp|h):' | sort -u | tr -d ':' || true)
    if [ -n "$bad" ]; then
        echo "Not formatted with clang-format (run: bash dev.sh format):" >&2
        echo "$bad" | sed 's/^/  /' >&2
        return 1
    fi
    echo "clang-format: $(cpp_files | wc -l) files formatted"
}

# clang-tidy 14 with .clang-tidy's checks (every finding is an error there) over
# the given .cpp files, or every tracked one in core/ and app/cli/; fails when it
# finds anything. It needs only compile_commands.json, so the build is configured,
# not built (the CLI's Qt-free sources need no generated header).
lint_files() {
    local files=("$@")
    [ ${#files[@]} -gt 0 ] || mapfile -t files < <(git ls-files 'core/*.cpp' 'app/cli/*.cpp')
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    local failed=0
    # One file a run, JOBS at a time; -Wno-unknown-warning-option: the build's GCC-only
    # flags (-Wno-restrict) are no error to clang. The "N warnings generated" lines
    # count what the header filter hides, so they are dropped.
    printf '%s\n' "${files[@]}" | xargs -P "$JOBS" -n 1 clang-tidy-14 -p "$BUILD_DIR" --quiet \
        --extra-arg=-Wno-unknown-warning-option 2>&1 | sed -E '/^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$/d' \
        || failed=1
    if [ $failed -ne 0 ]; then
        echo "clang-tidy found problems (above); fix them or, for a false positive, add a NOLINT saying why" >&2
        return 1
    fi
    echo "clang-tidy: ${#files[@]} files clean"
}

case "${1:-}" in
run)
    install_missing
    # Only what it opens: the app, and the CLI that writes the sample (no tests, no benchmarks).
    configure_and_build kinetoscope kinetoscope-cli
    sample="$BUILD_DIR/sample-trace"
    if [ ! -d "$sample" ]; then
        "$BUILD_DIR/app/cli/kinetoscope-cli" synth --ranks 4 --size-mb 40 --gzip --seed 1 --out "$sample"
    fi
    exec "$BUILD_DIR/app/gui/kinetoscope" "$sample"
    ;;
test)
    install_missing
    check_format
    configure_and_build
    cd "$BUILD_DIR"
    QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j "$JOBS" --timeout 600
    ;;
format)
    cpp_files | xargs clang-format -i
    ;;
lint)
    install_missing
    shift
    lint_files "$@"
    ;;
sanitize)
    install_missing
    export_sanitizer_options
    started=$SECONDS
    configure_sanitize "$SANITIZE_DIR" OFF
    cmake --build "$SANITIZE_DIR" -j "$JOBS"
    built=$SECONDS
    # The conformance tests are left to the normal build: the CLI sweep below runs
    # the same commands over every shared trace under the sanitizers.
    # cli_summarize_rss measures peak memory, which ASan's shadow and quarantine inflate;
    # cli_robustness_memory and _job-path-memory run under prlimit --as, where ASan
    # cannot reserve its shadow.
    (cd "$SANITIZE_DIR" && ctest --output-on-failure -j "$JOBS" --timeout 600 -L 'core|analysis|cli' \
        -E '^(cli_summarize_rss|cli_robustness_memory|cli_robustness_job-path-memory)$')
    tested=$SECONDS
    python3 tests/tools/cli_sweep.py --cli "$SANITIZE_DIR/app/cli/kinetoscope-cli" --traces ../shared/traces \
        --jobs "$JOBS"
    swept=$SECONDS
    # A fixed seed and a fixed number of runs (the time is only a cap), so that CI
    # repeats the same inputs whatever the machine's speed: about a minute in all.
    rm -rf "$SANITIZE_DIR/fuzz-corpus"
    run_fuzzers "$SANITIZE_DIR" 120 -seed=1 -runs=600
    echo "sanitize: build $((built - started))s, tests $((tested - built))s," \
        "CLI sweep $((swept - tested))s, fuzz $((SECONDS - swept))s, total $((SECONDS - started))s"
    ;;
package-test)
    install_missing "${PACKAGE_TEST_PACKAGES[@]}"
    configure_and_build
    bash packaging/test/package_test.sh "$BUILD_DIR"
    ;;
fuzz)
    install_missing
    export_sanitizer_options
    configure_sanitize "$FUZZ_DIR" ON
    cmake --build "$FUZZ_DIR" -j "$JOBS" --target "${FUZZERS[@]}"
    run_fuzzers "$FUZZ_DIR" "${2:-60}"
    ;;
*)
    echo "usage: bash dev.sh run|test|format|lint [FILE...]|sanitize|fuzz [SECONDS]|package-test" >&2
    exit 2
    ;;
esac
