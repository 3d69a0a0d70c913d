#!/usr/bin/env bash
# Kinetoscope developer entry point (Debian 12).
#   bash dev.sh run    install what is missing, build (Release), open the app on a generated sample
#   bash dev.sh test   install what is missing, check formatting, build, run every test
#   bash dev.sh format reformat every C++ file with clang-format (the check `test` runs)
#   bash dev.sh lint   clang-tidy (.clang-tidy's checks) over core/ and app/cli/
# Environment: BUILD_DIR (default build), JOBS (default: all cores), CI=true adds -Werror.
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
PACKAGES=(build-essential cmake ninja-build pkg-config git python3
          qt6-base-dev qt6-svg-dev libqcustomplot-dev libsimdjson-dev zlib1g-dev libisal-dev
          libsqlite3-dev libopenmpi-dev openmpi-bin
          libgl-dev xvfb xauth clang-format clang-tidy ccache)

install_missing() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure_and_build() {
    local werror=OFF
    [ "${CI:-}" = "true" ] && werror=ON
    local launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKS_WERROR=$werror "${launcher[@]}"
    cmake --build "$BUILD_DIR" -j "$JOBS"
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

case "${1:-}" in
run)
    install_missing
    configure_and_build
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
    configure_and_build
    # compile_commands.json comes from the build; only our own sources are checked.
    # -Wno-unknown-warning-option: the build's GCC-only flags (-Wno-restrict) are no error to clang-tidy.
    find core app/cli -name '*.cpp' | xargs -P "$JOBS" -n 4 clang-tidy-14 -p "$BUILD_DIR" --quiet \
        --extra-arg=-Wno-unknown-warning-option
    ;;
*)
    echo "usage: bash dev.sh run|test|format|lint" >&2
    exit 2
    ;;
esac
