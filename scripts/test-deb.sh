#!/usr/bin/env bash
# The Debian package as a user gets it (issue 47), in a clean Debian 12 root made here with
# mmdebstrap from Debian's packages, with no Swift toolchain in it:
#   1. `apt-get install ./dist/flyr-link_*.deb` installs it, its Depends bringing GDAL, PROJ, libpq, …;
#   2. ldd /usr/bin/flyr-link names no Swift runtime library and nothing missing;
#   3. `flyr-link --version` names the version and commit, and finds GDAL, GEOS and PROJ;
#   4. `flyr-link run pipelines/helsinki.toml` there writes the bytes the build tree's release
#      binary writes (report.json and report.html but for their timings);
#   5. `man flyr-link` and `man flyr-link-run` render; bash completion of `flyr-link run --` offers
#      --overwrite; `apt-get purge` leaves none of its files;
#   6. the package is at most 40 MB, and packaging the same tree again gives the same bytes.
#   scripts/test-deb.sh [PACKAGE.deb]      without a path, scripts/package-deb.sh builds it (a path given
#                                          must be this tree's package: --version is checked against it)
# The base root is kept as /var/cache/flyr-link-test/debian12-HASH.tar (HASH: of the mmdebstrap
# command and the apt sources), and the packages apt downloads into roots beside it; with no cache
# both are made anew. Roots are made in a temporary directory and removed. Run as root.
# Prints "deb: N passed, M failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh mmdebstrap dpkg-dev
started=$SECONDS

passed=0 failed=0
check() {  # check NAME COMMAND...: one test
  if "${@:2}"; then passed=$((passed + 1)); echo "deb: $1: ok"; else failed=$((failed + 1)); echo "deb: $1: FAILED"; fi
}
give_up() {  # give_up LOG WHAT: a step the checks need failed; counted as one more failure
  tail -40 "$1" >&2
  echo "deb: $2: FAILED"
  echo "deb: $passed passed, $((failed + 1)) failed"
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/flyr-deb-test.XXXXXX")
cleanup() {
  # The root's mounts live in namespaces that ended with their commands; never remove through one.
  if findmnt -rn -o TARGET | grep -qF "$work"; then echo "test-deb.sh: $work still has mounts; left in place" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# The package, and the reference: the build tree's release binary (FLYR_SCRATCH_PATH as in scripts/test.sh).
if [ $# -ge 1 ]; then
  deb=$(realpath "$1")
else
  scripts/package-deb.sh >"$work/package.log" 2>&1 || give_up "$work/package.log" "scripts/package-deb.sh"
  deb=$(tail -1 "$work/package.log")
  first=$(sha256sum "$deb" | cut -d' ' -f1)
  scripts/package-deb.sh >"$work/package.log" 2>&1 || give_up "$work/package.log" "scripts/package-deb.sh, again"
  check "packaging the same tree twice gives the same bytes" test "$first" = "$(sha256sum "$deb" | cut -d' ' -f1)"
fi
check "the package is at most 40 MB ($(stat -c %s "$deb") bytes)" test "$(stat -c %s "$deb")" -le 40000000
scratch=()
[ -z "${FLYR_SCRATCH_PATH:-}" ] || scratch=(--scratch-path "$FLYR_SCRATCH_PATH")
swift build -c release "${scratch[@]}" --product flyr-link >"$work/build.log" 2>&1 || give_up "$work/build.log" "the build tree's release build"
reference=$(swift build -c release "${scratch[@]}" --show-bin-path)/flyr-link
version=$(dpkg-deb -f "$deb" Version)
commit=""
git rev-parse --git-dir >/dev/null 2>&1 && commit=$(git rev-parse HEAD) && { [ -z "$(git status --porcelain)" ] || commit="$commit-dirty"; }

# The base root: Debian 12 with apt, man-db and bash-completion (no Swift), from the cache or made.
cache=/var/cache/flyr-link-test
sources=/etc/apt/sources.list.d/debian.sources
[ -f "$sources" ] || sources=/etc/apt/sources.list
base_command=(mmdebstrap --variant=apt --format=tar --include=man-db,bash-completion bookworm)
key=$( { echo "${base_command[*]}"; cat "$sources"; } | sha256sum | cut -c1-16)
base=$cache/debian12-$key.tar
mkdir -p "$cache/archives/partial"
if [ ! -s "$base" ]; then
  echo "test-deb.sh: making the base root ($base)" >&2
  "${base_command[@]}" "$base.$$.tmp" "$sources" </dev/null >"$work/mmdebstrap.log" 2>&1 || { rm -f "$base.$$.tmp"; give_up "$work/mmdebstrap.log" "mmdebstrap"; }
  mv -f "$base.$$.tmp" "$base"
  find "$cache" -maxdepth 1 -name 'debian12-*.tar' ! -name "$(basename "$base")" -delete
fi
root=$work/root
mkdir "$root"
tar -xf "$base" -C "$root"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"

in_root() {  # in_root SCRIPT: sh -c SCRIPT in the root, in a mount namespace of its own that ends with it
  unshare --mount --propagation private -- /bin/sh -c '
    mount -t proc proc "$1/proc" && mount -t sysfs sysfs "$1/sys" && mount --rbind /dev "$1/dev" &&
      mount --bind "$2" "$1/var/cache/apt/archives" || exit 1
    exec chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
      DEBIAN_FRONTEND=noninteractive /bin/sh -c "$3"' sh "$root" "$cache/archives" "$1"
}

# The workspace, at the same path inside the root as outside (report.json names its inputs).
ws=$work/ws
for dir in "$ws" "$root$ws"; do
  mkdir -p "$dir/pipelines" "$dir/data/helsinki" "$dir/dist"
  cp pipelines/helsinki.toml "$dir/pipelines/"
  cp data/helsinki/buildings.geojson data/helsinki/addresses.geojson "$dir/data/helsinki/"
done
cp "$deb" "$root$ws/dist/"

no_swift() { ! in_root 'command -v swift swiftc' >/dev/null && [ -z "$(find "$root" \( -name 'libswift*' -o -name 'libFoundation*' -o -name 'lib_Foundation*' \) -print -quit)" ]; }
check "the root has no Swift toolchain or runtime" no_swift
apt_install() {
  in_root "apt-get -o APT::Sandbox::User=root update -qq && cd '$ws' && apt-get -o APT::Sandbox::User=root install -y -q ./dist/$(basename "$deb")" >"$work/apt.log" 2>&1 \
    || { tail -30 "$work/apt.log" >&2; false; }
}
check "apt-get install ./dist/$(basename "$deb") in a clean Debian 12 root" apt_install
check "the root still has no Swift toolchain or runtime" no_swift

in_root 'ldd /usr/bin/flyr-link' >"$work/ldd.txt" 2>&1 || true
check "ldd /usr/bin/flyr-link names no Swift runtime library and nothing missing" \
  bash -c "grep -q libc.so.6 '$work/ldd.txt' && ! grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|not found' '$work/ldd.txt'"

in_root 'flyr-link --version' >"$work/version.txt" 2>&1 || true
check "flyr-link --version: 'flyr-link $version${commit:+ (commit $commit)}', GDAL, GEOS and PROJ found" \
  bash -c "[ \"\$(head -1 '$work/version.txt')\" = 'flyr-link $version${commit:+ (commit $commit)}' ] && grep -qE '^GDAL [0-9]' '$work/version.txt' && grep -qE '^GEOS [0-9]' '$work/version.txt' && grep -qE '^PROJ [0-9]' '$work/version.txt'"

# The demo in the root with /usr/bin/flyr-link, and with the build tree's binary outside.
in_root "cd '$ws' && test \"\$(command -v flyr-link)\" = /usr/bin/flyr-link && flyr-link run pipelines/helsinki.toml" >"$work/root-run.log" 2>&1 || cat "$work/root-run.log" >&2
(cd "$ws" && env -i PATH=/usr/bin:/bin HOME="$HOME" LANG=C.UTF-8 "$reference" run pipelines/helsinki.toml) >"$work/tree-run.log" 2>&1 || cat "$work/tree-run.log" >&2
same_outputs() {  # same_outputs A B: the same files, each the same bytes; report.json and report.html but for their timings
  local f ok=0
  [ -f "$1/links.csv" ] && [ "$(ls "$1")" = "$(ls "$2")" ] || { echo "test-deb.sh: $1 and $2 hold different files" >&2; return 1; }
  for f in $(ls "$1"); do
    case "$f" in
      report.json) python3 - "$1/$f" "$2/$f" <<'EOF' || { echo "test-deb.sh: $f differs" >&2; ok=1; } ;;
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for r in (a, b):
    r["run"].pop("seconds_by_stage"); r["run"].pop("seconds_total")
sys.exit(a != b)
EOF
      report.html) cmp -s <(perl -0pe 's/<!--run-->.*?<!--\/run-->//s' "$1/$f") <(perl -0pe 's/<!--run-->.*?<!--\/run-->//s' "$2/$f") || { echo "test-deb.sh: $f differs" >&2; ok=1; } ;;
      *) cmp -s "$1/$f" "$2/$f" || { echo "test-deb.sh: $f differs" >&2; ok=1; } ;;
    esac
  done
  return $ok
}
check "flyr-link run pipelines/helsinki.toml in the root: the build tree's outputs, byte for byte" same_outputs "$root$ws/out/helsinki" "$ws/out/helsinki"

in_root 'man flyr-link' >"$work/man.txt" 2>&1 || true
check "man flyr-link renders, naming flyr-link-run(1)" grep -q 'flyr-link-run(1)' "$work/man.txt"
in_root 'man flyr-link-run' >"$work/man-run.txt" 2>&1 || true
check "man flyr-link-run renders its options" bash -c "grep -q 'Link addresses to buildings' '$work/man-run.txt' && grep -q -- '--overwrite' '$work/man-run.txt'"
# As an interactive bash does: bash-completion loads the script by the command's name on the first <TAB>.
cat >"$root$ws/complete.sh" <<'EOF'
. /usr/share/bash-completion/bash_completion && __load_completion flyr-link || exit 1
function=$(complete -p flyr-link | sed -E 's/.* -F ([^ ]+) .*/\1/')
COMP_WORDS=(flyr-link run --); COMP_CWORD=2; COMP_LINE="flyr-link run --"; COMP_POINT=${#COMP_LINE}
"$function" flyr-link -- run
printf '%s\n' "${COMPREPLY[@]}"
EOF
in_root "bash '$ws/complete.sh'" >"$work/complete.txt" 2>&1 || true
check "bash completion of 'flyr-link run --<TAB>' offers --overwrite and --max-distance" bash -c "grep -qx -- --overwrite '$work/complete.txt' && grep -qx -- --max-distance '$work/complete.txt'"
check "zsh completion installed" test -s "$root/usr/share/zsh/vendor-completions/_flyr-link"

in_root 'dpkg -L flyr-link' >"$work/files.txt" 2>/dev/null || true
purge() {
  in_root 'apt-get purge -y -q flyr-link && apt-get autoclean -q' >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; return 1; }
  local f left=0
  while read -r f; do [ -d "$root$f" ] || [ ! -e "$root$f" ] || { echo "test-deb.sh: $f left" >&2; left=1; }; done <"$work/files.txt"
  grep -q /usr/bin/flyr-link "$work/files.txt" && [ $left -eq 0 ]
}
check "apt-get purge flyr-link leaves none of its files" purge

echo "test-deb.sh: $((SECONDS - started)) s" >&2
echo "deb: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
