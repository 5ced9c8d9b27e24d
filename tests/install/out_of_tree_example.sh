#!/usr/bin/env bash
# install.out_of_tree_example: hetscale installed into a fresh prefix (WORK,
# emptied first) and used from there, as a user outside the tree would:
#  - the layout: the command, its helpers, every static library, the headers,
#    the CMake package, hetscale.pc, the data; no path of the source or build
#    tree in the package or the .pc file;
#  - the installed headers compile with no other include folder;
#  - tests/install/consumer (find_package(hetscale)) builds the examples of
#    examples/library: heterogeneous_efficiency prints its expected output,
#    distributed_kernel (hetscale::mpi) passes its check under mpiexec -np 2,
#    task_farm (the task farm's API) counts its primes under mpiexec -np 3;
#  - the example compiled by hand with pkg-config --cflags --libs --static
#    prints the same, and examples/library/share_by_speed.c (C, MPI) built
#    with one `pkg-config --cflags --libs --static hetscale-mpi` line shares
#    1,500 rows on 3 ranks as the test example.share_by_speed does;
#  - the installed command, run from WORK: `measure --library` names the
#    installed library, `mpiexec -np 2 hetscale measure` records the MPI
#    example and `analyze` reads the record, `demo` prints the papers'
#    checks (tests/cli/golden/demo.txt) from share/hetscale, `simulate kernel`
#    runs the installed hetscale-smpi;
#  - the prefix moved elsewhere still works, and uses its own files: with a
#    paper's data or hetscale-smpi taken out of the moved copy, `demo` and
#    `simulate kernel` fail, naming them.
#
#   out_of_tree_example.sh SOURCE BUILD WORK MPIEXEC [MPIEXEC_FLAGS...]
# Environment (from install_tests.cmake): CMAKE, CC, CXX, BINDIR, LIBDIR,
# INCLUDEDIR, DATADIR (GNUInstallDirs), LIBRARIES (the static libraries).
set -euo pipefail
source=$1 build=$2 work=$3 mpiexec=$4
shift 4
mpiexec_flags=("$@")
examples=$source/examples/library

fail() {
  echo "install.out_of_tree_example: $*" >&2
  exit 1
}
step() { echo "--- $SECONDS s: $*"; }

rm -rf "$work"
mkdir -p "$work/run"
prefix=$work/prefix
step "cmake --install into $prefix"
"$CMAKE" --install "$build" --prefix "$prefix" > "$work/install.log"

step "layout"
expected=("$BINDIR/hetscale" "$LIBDIR/hetscale/libhetscale_measure.so" "$LIBDIR/hetscale/hetscale-smpi"
  "$INCLUDEDIR/hetscale/measure.h" "$INCLUDEDIR/hetscale/model/heterogeneous.hpp"
  "$LIBDIR/cmake/hetscale/hetscaleConfig.cmake" "$LIBDIR/cmake/hetscale/hetscaleConfigVersion.cmake"
  "$LIBDIR/cmake/hetscale/hetscaleTargets.cmake" "$LIBDIR/pkgconfig/hetscale.pc" "$LIBDIR/pkgconfig/hetscale-mpi.pc"
  "$DATADIR/hetscale/data/papers/seed000.json" "$DATADIR/hetscale/examples/run-hetero.json")
for library in $LIBRARIES; do expected+=("$LIBDIR/lib$library.a"); done
for file in "${expected[@]}"; do
  [[ -f $prefix/$file ]] || fail "cmake --install did not write $file"
done
[[ -x $prefix/$LIBDIR/hetscale/hetscale-smpi ]] || fail "$LIBDIR/hetscale/hetscale-smpi is not executable (smpirun runs it)"
while read -r header; do
  [[ -f $prefix/$INCLUDEDIR/$header ]] || fail "include/$header is not installed"
done < <(cd "$source/include" && find hetscale -type f)
if grep -l -e "$source" -e "$build" "$prefix/$LIBDIR"/cmake/hetscale/*.cmake "$prefix/$LIBDIR"/pkgconfig/hetscale*.pc; then
  fail "the installed package names the source or build tree (files above)"
fi

step "the installed headers compile with nothing but the prefix"
find "$prefix/$INCLUDEDIR/hetscale" -name '*.h*' -printf '#include <hetscale/%P>\n' | sort > "$work/headers.cpp"
"$CXX" -std=c++20 -fsyntax-only -I "$prefix/$INCLUDEDIR" "$work/headers.cpp" \
  || fail "the installed headers do not compile alone (a header of src/ included?)"

step "a CMake project outside the tree: find_package(hetscale)"
"$CMAKE" -S "$source/tests/install/consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DHETSCALE_EXAMPLES="$examples" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
  > "$work/consumer-configure.log" || { cat "$work/consumer-configure.log"; fail "the consumer does not configure"; }
found=$(sed -n 's/^hetscale_DIR:PATH=//p' "$work/consumer/CMakeCache.txt")
[[ $found == "$prefix/$LIBDIR/cmake/hetscale" ]] || fail "find_package(hetscale) found $found, not the installed copy"
"$CMAKE" --build "$work/consumer" -j 2 > "$work/consumer-build.log" \
  || { cat "$work/consumer-build.log"; fail "the consumer does not build"; }
(cd "$work/run" && "$work/consumer/heterogeneous_efficiency") > "$work/heterogeneous_efficiency.txt"
diff "$examples/heterogeneous_efficiency.txt" "$work/heterogeneous_efficiency.txt" \
  || fail "heterogeneous_efficiency (CMake) printed the lines above, not $examples/heterogeneous_efficiency.txt"
kernel=$(cd "$work/run" && "$mpiexec" -np 2 "${mpiexec_flags[@]}" "$work/consumer/distributed_kernel")
[[ $kernel == "mm, N 96, 2 ranks: check passed "* ]] || fail "distributed_kernel printed: $kernel"
farmed=$(cd "$work/run" && "$mpiexec" -np 3 "${mpiexec_flags[@]}" "$work/consumer/task_farm" | head -1)
[[ $farmed == "task_farm: 64 tasks on 2 clients: 33860 primes below 400000 (the serial count)" ]] \
  || fail "task_farm printed: $farmed"

step "pkg-config --cflags --libs --static hetscale"
export PKG_CONFIG_PATH=$prefix/$LIBDIR/pkgconfig
# shellcheck disable=SC2046  # pkg-config's flags are words
"$CXX" -std=c++20 $(pkg-config --cflags hetscale) "$examples/heterogeneous_efficiency.cpp" \
  -o "$work/pkg_config_example" $(pkg-config --libs --static hetscale) || fail "the pkg-config flags do not build it"
"$work/pkg_config_example" > "$work/pkg_config_example.txt"
diff "$examples/heterogeneous_efficiency.txt" "$work/pkg_config_example.txt" \
  || fail "heterogeneous_efficiency (pkg-config) printed the lines above"

step "pkg-config --cflags --libs --static hetscale-mpi: a C program sharing its rows (share_by_speed.h)"
# shellcheck disable=SC2046  # pkg-config's flags are words
"$CC" "$examples/share_by_speed.c" -o "$work/pkg_config_share_by_speed" \
  $(pkg-config --cflags --libs --static hetscale-mpi) || fail "the hetscale-mpi pkg-config flags do not build it"
"$mpiexec" -np 3 "${mpiexec_flags[@]}" "$work/pkg_config_share_by_speed" \
  "$source/tests/cli/partition/model-small.json" 1500 > "$work/pkg_config_share_by_speed.txt" \
  || fail "share_by_speed (pkg-config) failed: $(cat "$work/pkg_config_share_by_speed.txt")"
grep -q "^share_by_speed: 1500 rows on 3 ranks: 792 444 264; .*every row once: yes" \
  "$work/pkg_config_share_by_speed.txt" || fail "share_by_speed (pkg-config): $(cat "$work/pkg_config_share_by_speed.txt")"

step "the installed command, from $work/run"
hetscale=$prefix/$BINDIR/hetscale
cd "$work/run"
# The preload list's last entry (a sanitized build puts the sanitizer's run time first).
library=$("$hetscale" measure --library)
library=${library##*:}
[[ $library == "$prefix/$LIBDIR/hetscale/libhetscale_measure.so" ]] || fail "measure --library says $library"
"$mpiexec" -np 2 "${mpiexec_flags[@]}" "$hetscale" measure --out measured.json -- "$work/consumer/distributed_kernel" \
  > measure.txt || fail "hetscale measure of distributed_kernel failed"
grep -q "^mm, N 96, 2 ranks: check passed " measure.txt || fail "distributed_kernel under hetscale measure: $(cat measure.txt)"
"$hetscale" analyze measured.json --json > analysis.json || fail "hetscale analyze of the measured run failed"
python3 - analysis.json <<'EOF' || fail "the measured run is not of two ranks that moved data"
import json, sys
analysis = json.load(open(sys.argv[1]))
moved = [f for f in analysis["mpi_functions"] if f["bytes"] > 0]
sys.exit(0 if len(analysis["speeds"]["nodes"]) == 2 and moved else 1)
EOF
"$hetscale" demo > demo.txt || fail "hetscale demo failed (exit $?)"
python3 "$source/tests/support/compare_golden.py" "$source/tests/cli/golden/demo.txt" demo.txt \
  || fail "hetscale demo differs from tests/cli/golden/demo.txt"
# Not in a sanitized build (SANITIZED=1): smpirun cannot load a sanitized
# hetscale-smpi once per rank (tests/smpi/smpi_tests.cmake says why).
if [[ ${SANITIZED:-0} != 1 ]]; then
  "$hetscale" simulate kernel mm --size 24 --hosts 2 --platform "$prefix/$DATADIR/hetscale/examples/platform-hetero.json" \
    > simulated.txt || fail "hetscale simulate kernel (the installed hetscale-smpi) failed"
  grep -q "check passed" simulated.txt || fail "hetscale simulate kernel: $(cat simulated.txt)"
fi

step "the prefix moved"
moved=$work/moved
mv "$prefix" "$moved"
hetscale=$moved/$BINDIR/hetscale
library=$("$hetscale" measure --library)
library=${library##*:}
[[ $library == "$moved/$LIBDIR/hetscale/libhetscale_measure.so" ]] || fail "moved: measure --library says $library"
"$hetscale" demo > /dev/null || fail "moved: hetscale demo failed"
# Its own files, not the source or build tree's: each taken out, the command
# says so (one line, exit 2).
expect_missing() {
  local missing=$1 expected=$2 code=0
  shift 2
  rm "$moved/$missing"
  "$hetscale" "$@" > /dev/null 2> error.txt || code=$?
  [[ $code == 2 && $(wc -l < error.txt) == 1 ]] && grep -q -- "$expected" error.txt \
    || fail "moved, $missing taken out: hetscale $* exited $code, saying: $(cat error.txt)"
}
expect_missing "$DATADIR/hetscale/data/papers/seed000.json" "data/papers/seed000.json: cannot be opened" demo
expect_missing "$LIBDIR/hetscale/hetscale-smpi" "$moved/$LIBDIR/hetscale/hetscale-smpi" \
  simulate kernel mm --size 24 --hosts 2 --platform "$moved/$DATADIR/hetscale/examples/platform-hetero.json"
rm -rf "$moved"  # large (debug information); the logs stay
step "passed"
