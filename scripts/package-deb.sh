#!/usr/bin/env bash
# Builds dist/flyr-link_VERSION_amd64.deb, for Debian 12 machines without a Swift toolchain:
# /usr/bin/flyr-link with the Swift runtime and Foundation linked in statically, its man pages
# (flyr-link(1), flyr-link-run(1), … from the help text, by swift-argument-parser's generate-manual)
# and bash/zsh completions. Prints the package's path last.
#   scripts/package-deb.sh
# The same commit gives the same bytes: file times are the commit's (SOURCE_DATE_EPOCH, unless set).
# FLYR_DEB_SCRATCH_PATH: the build folder (default .build-deb; .build is left alone).
set -euo pipefail
cd "$(dirname "$0")/.."
root_dir=$(pwd)
scripts/install-deps.sh dpkg-dev binutils gcc
mkdir -p "${FLYR_DEB_SCRATCH_PATH:-.build-deb}"
scratch=$(cd "${FLYR_DEB_SCRATCH_PATH:-.build-deb}" && pwd)

# What it is built from: the commit (with -dirty when the tree differs from it), linked in as one
# object so that `flyr-link --version` names it (Sources/CBuildInfo).
commit=""
if git rev-parse --git-dir >/dev/null 2>&1; then
  commit=$(git rev-parse HEAD)
  [ -z "$(git status --porcelain)" ] || commit="$commit-dirty"
  export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
fi
[ -n "${SOURCE_DATE_EPOCH:-}" ] || { echo "package-deb.sh: not a git checkout: set SOURCE_DATE_EPOCH (the sources' date, in seconds)" >&2; exit 1; }
# (The object is named by the commit: a new one changes the link command, so SwiftPM relinks.)
link_commit=()
rm -rf "$scratch/build-commit"
if [ -n "$commit" ]; then
  mkdir -p "$scratch/build-commit"
  printf 'const char flyr_build_commit_text[] = "%s";\n' "$commit" >"$scratch/build-commit/$commit.c"
  cc -c -o "$scratch/build-commit/$commit.o" "$scratch/build-commit/$commit.c"
  link_commit=(-Xlinker "$scratch/build-commit/$commit.o")
fi

# The bytes must not depend on the checkout's path (toml++'s assertions name their header) nor on the
# headers' mtimes (clang modules record them, and the binary keeps the modules' hashes).
build=(swift build -c release --static-swift-stdlib --scratch-path "$scratch" -Xcc "-ffile-prefix-map=$root_dir=."
  -Xcc -Xclang -Xcc -fno-pch-timestamp "${link_commit[@]}")
"${build[@]}" --product flyr-link
built=$("${build[@]}" --show-bin-path)/flyr-link
# Nothing of the toolchain's runtime may be loaded from the machine it runs on.
if ldd "$built" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|not found'; then
  echo "package-deb.sh: $built needs the libraries above at run time" >&2
  exit 1
fi
version_line=$("$built" --version | head -1)
version=$(awk '{ print $2 }' <<<"$version_line")
expected="flyr-link $version${commit:+ (commit $commit)}"
[ "$version_line" = "$expected" ] || { echo "package-deb.sh: --version says '$version_line', not '$expected'" >&2; exit 1; }
[[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || { echo "package-deb.sh: '$version' is not a Debian version" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/flyr-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
umask 022
# (Laid out as debian/flyr-link, where dpkg-shlibdeps expects a package's files.)
pkg=$work/debian/flyr-link
mkdir -p "$pkg/DEBIAN" "$pkg/usr/bin" "$pkg/usr/share/man/man1" "$pkg/usr/share/doc/flyr-link" \
  "$pkg/usr/share/bash-completion/completions" "$pkg/usr/share/zsh/vendor-completions"
strip --strip-all -o "$pkg/usr/bin/flyr-link" "$built"
chmod 755 "$pkg/usr/bin/flyr-link"

# Man pages: generate-manual, the tool behind swift-argument-parser's plugin, run over the binary
# being packaged (the plugin would build every product again), one page per command.
"${build[@]}" --product generate-manual >/dev/null
man=$work/man
mkdir "$man"
"$("${build[@]}" --show-bin-path)/generate-manual" "$pkg/usr/bin/flyr-link" --multi-page \
  --date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)" --output-directory "$man"
# Its pages are named flyr-link.run.1; `man flyr-link-run` (as git-commit(1)) needs flyr-link-run.1.
# (No page for argument-parser's `help` subcommand: it says what --help does.)
rm "$man/flyr-link.help.1"
for page in "$man"/*.1; do
  name=$(basename "$page" .1)
  perl -ne 'print unless /^\.Xr flyr-link\.help /' "$page" | perl -pe 's/^(\.(?:Dt|Xr)\s+)(\S+)/$1 . ($2 =~ tr|.|-|r)/e' | gzip -9n >"$pkg/usr/share/man/man1/${name//./-}.1.gz"
done

"$pkg/usr/bin/flyr-link" --generate-completion-script bash >"$pkg/usr/share/bash-completion/completions/flyr-link"
"$pkg/usr/bin/flyr-link" --generate-completion-script zsh >"$pkg/usr/share/zsh/vendor-completions/_flyr-link"

cat >"$pkg/usr/share/doc/flyr-link/copyright" <<EOF
flyr-link $version${commit:+, built from commit $commit}.

flyr-link's own source states no licence; ask its authors before redistributing this package.

/usr/bin/flyr-link has these linked in statically:
 - the Swift standard library, runtime, Foundation and Dispatch: Apache License 2.0 with the
   Runtime Library Exception (https://swift.org/LICENSE.txt), with ICU (Unicode License v3);
 - swift-argument-parser: Apache License 2.0 (/usr/share/common-licenses/Apache-2.0);
 - TOMLKit and toml++: MIT License.
The demo data the source tree carries (OpenStreetMap, ODbL 1.0) is not in this package.
EOF

# Depends: what the binary links (dpkg-shlibdeps), and the libraries CLateBound opens at first use
# (GDAL, PROJ, libpq, libcurl), which no ELF header names: a stub linked with exactly those sonames.
printf 'Source: flyr-link\n\nPackage: flyr-link\nArchitecture: amd64\n' >"$work/debian/control"
sonames=$(grep -oE '"lib[a-z0-9_]+\.so\.[0-9]+"' Sources/CLateBound/late_bound.c | tr -d '"')
[ "$(wc -w <<<"$sonames")" -ge 4 ] || { echo "package-deb.sh: the late-bound sonames were not found in Sources/CLateBound/late_bound.c" >&2; exit 1; }
echo 'int main(void) { return 0; }' | cc -x c -o "$pkg/late-bound" - -Wl,--no-as-needed $(printf -- '-l:%s ' $sonames)
depends=$(cd "$work" && dpkg-shlibdeps -O --warnings=0 -edebian/flyr-link/usr/bin/flyr-link -edebian/flyr-link/late-bound | sed -n 's/^shlibs:Depends=//p')
rm "$pkg/late-bound"
for soname in $sonames; do
  package=$(dpkg -S "*/$soname" | head -1 | cut -d: -f1)
  grep -qE "(^|, )$package( |,|$)" <<<"$depends" || { echo "package-deb.sh: $soname ($package) is not in Depends: $depends" >&2; exit 1; }
done

installed_size=$(du -sk --apparent-size "$pkg/usr" | cut -f1)
cat >"$pkg/DEBIAN/control" <<EOF
Package: flyr-link
Version: $version
Architecture: amd64
Maintainer: flyr-link maintainers <maintainers@users.noreply.a-seed-4a7db8a6.example>
Installed-Size: $installed_size
Depends: $depends
Section: science
Priority: optional
Description: link address points to building footprints
 flyr-link reads building footprints and address points from any source GDAL
 opens (and GeoParquet), links each address to its building with a fitted
 model and writes the link table, GeoJSON layers, a report and a full-features
 collection for door-to-door campaigns. Built with the Swift runtime linked in:
 no Swift toolchain is needed.
EOF
(cd "$pkg" && find usr -type f | LC_ALL=C sort | xargs md5sum) >"$pkg/DEBIAN/md5sums"
chmod 644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
find "$pkg" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
mkdir -p dist
deb=dist/flyr-link_${version}_amd64.deb
# (One xz thread: xz's output depends on whether it runs threaded, which depends on the machine.)
dpkg-deb --root-owner-group -Zxz --threads-max=1 --build "$pkg" "$work/out.deb" >/dev/null
mv -f "$work/out.deb" "$deb"
echo "package-deb.sh: $(stat -c %s "$deb") bytes, Depends: $depends" >&2
echo "$root_dir/$deb"
