#!/bin/sh
# Cross-compiles massgen-hook's release binaries into $DIST (default dist/):
# static (CGO_ENABLED=0), reproducible (-trimpath), stripped (-s -w), one per
# platform of $PLATFORMS, named massgen-hook_VERSION_OS_ARCH[.exe], and
# $DIST/SHA256SUMS over this version's binaries (the file the plugin
# launcher, the GitHub Action and users verify downloads against).
# Usage: VERSION=v1.2.3 scripts/release.sh   (make release sets VERSION)
set -eu
cd "$(dirname "$0")/.."

version=${VERSION:?set VERSION (make release sets it from git describe)}
case $version in
*[!A-Za-z0-9._+-]*) echo "release: VERSION $version: use letters, digits and . _ + - only" >&2; exit 2 ;;
esac
dist=${DIST:-dist}
# Not windows yet: internal/hookfs and internal/proc use Unix system calls
# (openat, process groups) with no Windows counterpart written.
platforms=${PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64}

if command -v sha256sum >/dev/null; then sha256() { sha256sum "$@"; }; else sha256() { shasum -a 256 "$@"; }; fi

mkdir -p "$dist"
rm -f "$dist"/massgen-hook_"$version"_* "$dist/SHA256SUMS"
names=
for p in $platforms; do
	os=${p%/*} arch=${p#*/}
	ext=
	[ "$os" = windows ] && ext=.exe
	name=massgen-hook_${version}_${os}_${arch}${ext}
	# -buildvcs=auto overrides a GOFLAGS=-buildvcs=false: the binary
	# records its revision whenever it is built from a git clone.
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -buildvcs=auto \
		-ldflags "-s -w -X github.com/massgen/massgen-hook/cli.version=$version" \
		-o "$dist/$name" ./cmd/massgen-hook
	names="$names $name"
done
# shellcheck disable=SC2086 # names are words without spaces, by construction
(cd "$dist" && sha256 $names >SHA256SUMS)
cat "$dist/SHA256SUMS"
