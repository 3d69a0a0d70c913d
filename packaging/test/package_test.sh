#!/usr/bin/env bash
# `bash dev.sh package-test BUILD_DIR`: the .debs as a new user meets them.
#  1. cpack in BUILD_DIR (the build `dev.sh test` made): kinetoscope and kinetoscope-mpi;
#  2. lintian on both (no errors), desktop-file-validate, appstreamcli validate, the
#     MIME types; the packaged kinetoscope-cli on an emulated baseline CPU (qemu-user);
#  3. a minimal Debian 12 root (mmdebstrap --variant=apt: essential packages and apt),
#     where in_root.sh installs the packages with apt-get and runs the CLI, the app
#     (offscreen), mpirun with the MPI build and the baseline parser kernel, and
#     `import kinetoscope` in Debian's python3, checking what they print against the
#     build tree's CLI and module.
# Environment: PACKAGE_TEST_MODE (mmdebstrap --mode: default auto, which is root
# as root and unshare otherwise), PACKAGE_TEST_MIRROR (default deb.debian.org).
# Downloaded .debs are kept in BUILD_DIR/package-test/apt-cache for the next run.
set -euo pipefail
build=$(realpath "$1")
source_dir=$(realpath "$(dirname "$0")/../..")
stage=$build/package-test
mode=${PACKAGE_TEST_MODE:-auto}
mirror=${PACKAGE_TEST_MIRROR:-http://deb.debian.org}
started=$SECONDS

rm -rf "$stage/ks"
mkdir -p "$stage/ks/debs" "$stage/apt-cache"
echo "== cpack"
(cd "$build" && cpack -G DEB -B "$stage/cpack" >"$stage/cpack.log" 2>&1) || {
    tail -20 "$stage/cpack.log"
    exit 1
}
cp "$stage"/cpack/kinetoscope_*.deb "$stage"/cpack/kinetoscope-mpi_*.deb "$stage/ks/debs/"
for deb in "$stage"/ks/debs/*.deb; do
    echo "$(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
done
packaged=$SECONDS

echo "== what the build tree's kinetoscope-cli prints for the shared trace"
trace=$source_dir/../shared/traces/h100_qwen05b
[ -d "$trace" ] || {
    echo "package-test: $trace is missing (the shared traces sit beside the checkout)" >&2
    exit 1
}
cp -r "$trace" "$stage/ks/trace"
(cd "$stage/ks" && "$build/app/cli/kinetoscope-cli" info trace >expected-info.txt &&
    "$build/app/cli/kinetoscope-cli" analyze trace >expected-analyze.txt)
# The Python module from the build tree: what the installed one must print (python_call.py).
cp "$source_dir/packaging/test/python_call.py" "$stage/ks/"
(cd "$stage/ks" && PYTHONPATH="$build/python" /usr/bin/python3 python_call.py trace >expected-python.txt)
cp "$source_dir/packaging/test/in_root.sh" "$stage/ks/"

echo "== lintian, desktop-file-validate, appstreamcli validate"
# Errors fail; warnings are printed. The packages are built by CPack, not from a
# Debian source package, so there is no source to check.
lintian --fail-on error --tag-display-limit 0 "$stage"/ks/debs/*.deb
desktop-file-validate "$source_dir/packaging/kinetoscope.desktop"
appstreamcli validate --no-net --pedantic "$source_dir/packaging/kinetoscope.metainfo.xml"
# The MIME types: update-mime-database warns on stderr about anything it cannot use.
data=$(mktemp -d)
mime=$data/mime
mkdir -p "$mime/packages"
cp "$source_dir/packaging/kinetoscope-mime.xml" "$mime/packages/"
XDG_DATA_DIRS=$data update-mime-database "$mime" 2>"$stage/mime.err"
if [ -s "$stage/mime.err" ] || [ "$(grep -c 'x-kineto-trace' "$mime/globs2")" -ne 2 ]; then
    cat "$stage/mime.err" >&2
    echo "package-test: packaging/kinetoscope-mime.xml: update-mime-database did not take both types" >&2
    exit 1
fi
rm -rf "$data"
echo "MIME types: both registered"

echo "== the packaged kinetoscope-cli on an emulated x86-64 baseline CPU (qemu64: no SSE4.2, no AVX)"
# A package built on this AVX2 machine must run anywhere: outside the parser's
# Haswell copy, no instruction beyond the baseline (the libraries are this system's).
rm -rf "$stage/extract"
dpkg-deb -x "$stage"/ks/debs/kinetoscope_*.deb "$stage/extract"
(cd "$stage/ks" && qemu-x86_64 -cpu qemu64 \
    "$stage/extract/usr/bin/kinetoscope-cli" analyze trace >"$stage/emulated-analyze.txt")
cmp -s "$stage/ks/expected-analyze.txt" "$stage/emulated-analyze.txt" || {
    echo "package-test: kinetoscope-cli analyze on an emulated qemu64 CPU differs from the build tree's" >&2
    exit 1
}
echo "analyze on qemu64: as on this CPU"
linted=$SECONDS

echo "== mmdebstrap --variant=apt --mode=$mode bookworm, then in_root.sh there"
rm -rf "$stage/results"
mkdir -p "$stage/results"
mmdebstrap --variant=apt --mode="$mode" --quiet \
    --skip=essential/unlink \
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
    --setup-hook="sync-in '$stage/apt-cache' /var/cache/apt/archives/" \
    --customize-hook="copy-in '$stage/ks' /tmp" \
    --customize-hook='chroot "$1" bash /tmp/ks/in_root.sh' \
    --customize-hook="copy-out /tmp/ks '$stage/results'" \
    --customize-hook="sync-out /var/cache/apt/archives '$stage/apt-cache'" \
    bookworm /dev/null \
    "deb $mirror/debian bookworm main" \
    "deb $mirror/debian bookworm-updates main" \
    "deb $mirror/debian-security bookworm-security main"
echo "package-test: what the root printed and the app's screenshot are in $stage/results/ks"
echo "package-test: cpack $((packaged - started))s, lintian, validators, emulated CPU $((linted - packaged))s," \
    "Debian 12 root and checks $((SECONDS - linted))s, total $((SECONDS - started))s"
