#!/usr/bin/env bash
# Runs inside the fresh Debian 12 root that packaging/package_test.sh makes
# (mmdebstrap --variant=apt: essential packages and apt, nothing else), as a
# new user would: installs the packages with apt-get and uses them. /tmp/ks
# holds the .debs (debs/), a shared trace (trace/) and what the build tree's
# kinetoscope-cli printed for it (expected-*.txt). Any failed check exits 1.
set -euo pipefail
cd /tmp/ks
export DEBIAN_FRONTEND=noninteractive
fail() {
    echo "package-test: FAIL: $*" >&2
    exit 1
}
step() {
    echo "== $*"
}
installed() {
    dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q "install ok installed"
}

step "apt-get install ./kinetoscope_*.deb"
apt-get install -y -q --no-install-recommends ./debs/kinetoscope_*.deb >apt-kinetoscope.log 2>&1 ||
    { tail -20 apt-kinetoscope.log; fail "apt-get install kinetoscope"; }
# The desktop package must not pull Open MPI in.
for mpi in libopenmpi3 openmpi-bin libhwloc15; do
    ! installed "$mpi" || fail "installing kinetoscope installed $mpi"
done
echo "installed $(dpkg-query -W -f='${Version}' kinetoscope), $(dpkg -l | grep -c '^ii') packages in the root, no Open MPI"

step "kinetoscope-cli --version"
version=$(kinetoscope-cli --version)
[[ $version == "kinetoscope-cli "[0-9]* ]] || fail "--version printed '$version'"
echo "$version"

step "kinetoscope-cli info and analyze, as the build tree printed them"
kinetoscope-cli info trace >info.txt 2>info.err || fail "info exited $?: $(cat info.err)"
diff -u expected-info.txt info.txt || fail "info differs from the build tree's"
kinetoscope-cli analyze trace >analyze.txt 2>analyze.err || fail "analyze exited $?: $(cat analyze.err)"
diff -u expected-analyze.txt analyze.txt >/dev/null || fail "analyze differs from the build tree's"
echo "info: $(grep -c '^rank ' info.txt) rank(s); analyze: $(grep -c '^== ' analyze.txt) tables, both as expected"

step "the parser kernels: the CPU's, then KS_PARSER_KERNEL=baseline"
kinetoscope-cli info trace --verbose 2>&1 >/dev/null | grep "parser kernel" || fail "info --verbose names no kernel"
KS_PARSER_KERNEL=baseline kinetoscope-cli info trace --verbose >info-baseline.txt 2>kernel.txt ||
    fail "info with the baseline kernel exited $?"
grep -q "parser kernel baseline" kernel.txt || fail "KS_PARSER_KERNEL=baseline ran $(cat kernel.txt)"
diff -u expected-info.txt info-baseline.txt || fail "the baseline kernel's info differs"
KS_PARSER_KERNEL=baseline kinetoscope-cli analyze trace >analyze-baseline.txt ||
    fail "analyze with the baseline kernel exited $?"
diff -u expected-analyze.txt analyze-baseline.txt >/dev/null || fail "the baseline kernel's analyze differs"
echo "baseline kernel: same info and analyze"

step "kinetoscope, offscreen, opens the trace"
shot=/tmp/ks/window.png
QT_QPA_PLATFORM=offscreen timeout 120 kinetoscope trace --screenshot "$shot" --screenshot-after 3000 \
    --window-size 1280x800 >app.log 2>&1 || fail "kinetoscope exited $?: $(tail -5 app.log)"
[ -s "$shot" ] && [ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    fail "kinetoscope wrote no PNG screenshot"
echo "window.png: $(stat -c %s "$shot") bytes"

step "desktop files and man pages"
for f in /usr/share/applications/io.github.kinetoscope.Kinetoscope.desktop \
    /usr/share/metainfo/io.github.kinetoscope.Kinetoscope.metainfo.xml \
    /usr/share/mime/packages/kinetoscope.xml \
    /usr/share/icons/hicolor/scalable/apps/io.github.kinetoscope.Kinetoscope.svg \
    /usr/share/man/man1/kinetoscope.1.gz /usr/share/man/man1/kinetoscope-cli.1.gz; do
    [ -s "$f" ] || fail "missing $f"
done
echo "all installed"

step "import kinetoscope in Debian's python3 (with python3-pandas), as the build tree's module printed"
apt-get install -y -q --no-install-recommends python3 python3-numpy python3-pandas >apt-python.log 2>&1 ||
    { tail -20 apt-python.log; fail "apt-get install python3-pandas"; }
python3 python_call.py trace >python.txt 2>python.err || fail "python3 python_call.py exited $?: $(tail -5 python.err)"
diff -u expected-python.txt python.txt || fail "the installed module prints other numbers than the build tree's"
echo "kinetoscope from $(python3 -c 'import kinetoscope; print(kinetoscope.__file__)'): as the build tree's"

step "apt-get install ./kinetoscope-mpi_*.deb; mpirun -np 2 kinetoscope-cli-mpi summarize"
apt-get install -y -q --no-install-recommends ./debs/kinetoscope-mpi_*.deb >apt-mpi.log 2>&1 ||
    { tail -20 apt-mpi.log; fail "apt-get install kinetoscope-mpi"; }
[ -s /usr/share/man/man1/kinetoscope-cli-mpi.1.gz ] || fail "missing the kinetoscope-cli-mpi man page"
kinetoscope-cli synth --ranks 6 --size-mb 0.3 --seed 3 --out job >/dev/null || fail "synth exited $?"
kinetoscope-cli summarize job --out single.kssum >/dev/null || fail "summarize exited $?"
# mpirun refuses root unless told; the root of a throwaway chroot is fine.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout 300 mpirun --oversubscribe -np 2 kinetoscope-cli-mpi summarize job --out mpi.kssum --jobs 1 \
    >mpi.txt 2>mpi.err || fail "mpirun exited $?: $(tail -5 mpi.err)"
grep -q "^wrote mpi.kssum: 6 ok" mpi.txt || fail "mpirun printed: $(cat mpi.txt mpi.err)"
kinetoscope-cli summary-info mpi.kssum >mpi-info.txt || fail "summary-info refused the MPI summary"
kinetoscope-cli summary-info single.kssum >single-info.txt || fail "summary-info refused the summary"
grep -qx "shard_count: 2" mpi-info.txt && grep -qx "shards: 0,1" mpi-info.txt ||
    fail "the MPI summary does not hold both shards: $(grep '^shard' mpi-info.txt)"
diff <(grep '^rows in' single-info.txt) <(grep '^rows in' mpi-info.txt) ||
    fail "the MPI summary's tables differ from one process's"
cat mpi.txt
echo "$(grep -c '^rows in' mpi-info.txt) tables with the same row counts as one process's summary"

echo "package-test: PASS"
