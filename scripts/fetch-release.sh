#!/bin/sh
# Downloads the massgen-hook release binary of VERSION for this machine to
# DEST, after checking its SHA-256 against the release's SHA256SUMS; nothing
# is written to DEST unless the checksum matches. The plugin launcher and the
# GitHub Action use it.
#
# Usage: fetch-release.sh VERSION DEST [SUMS]
#   SUMS      a SHA256SUMS file to trust (default: the release's own)
# Environment:
#   MASSGEN_HOOK_RELEASE_URL  where the release's files are (default:
#                             https://github.com/massgen/massgen-hook/releases/download/VERSION);
#                             http(s):// or file://
#   MASSGEN_HOOK_OS, MASSGEN_HOOK_ARCH  the platform (default: uname's)
#   MASSGEN_HOOK_SHA256       the binary's expected SHA-256, checked as well
# Exit status: 0 installed, 1 download or verification failed, 2 usage.
set -eu

fail() { echo "massgen-hook fetch: $*" >&2; exit 1; }
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: fetch-release.sh VERSION DEST [SUMS]" >&2; exit 2; }
version=$1 dest=$2 sums=${3:-}
case $version in
'' | *[!A-Za-z0-9._+-]*) echo "massgen-hook fetch: version \"$version\": use a release tag such as v1.2.3" >&2; exit 2 ;;
esac

os=${MASSGEN_HOOK_OS:-$(uname -s)}
case $os in
Linux | linux) os=linux ;;
Darwin | darwin | macOS) os=darwin ;;
Windows | windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
*) echo "massgen-hook fetch: no release binary for OS $os (linux, darwin, windows)" >&2; exit 2 ;;
esac
arch=${MASSGEN_HOOK_ARCH:-$(uname -m)}
case $arch in
x86_64 | amd64 | X64) arch=amd64 ;;
aarch64 | arm64 | ARM64) arch=arm64 ;;
*) echo "massgen-hook fetch: no release binary for CPU $arch (amd64, arm64)" >&2; exit 2 ;;
esac
ext=
[ "$os" = windows ] && ext=.exe
name=massgen-hook_${version}_${os}_${arch}${ext}
base=${MASSGEN_HOOK_RELEASE_URL:-https://github.com/massgen/massgen-hook/releases/download/$version}

get() { # URL FILE
	if command -v curl >/dev/null; then
		curl -fsSL --retry 2 -o "$2" "$1"
	elif command -v wget >/dev/null; then
		wget -q -O "$2" "$1"
	else
		fail "neither curl nor wget is installed"
	fi
}
sha256() {
	if command -v sha256sum >/dev/null; then
		sha256sum "$1"
	elif command -v shasum >/dev/null; then
		shasum -a 256 "$1"
	else
		openssl dgst -sha256 -r "$1"
	fi | { read -r sum _ && echo "$sum"; }
}

mkdir -p "$(dirname "$dest")"
tmp=$dest.download.$$
trap 'rm -f "$tmp" "$tmp.sums"' EXIT
if [ -z "$sums" ]; then
	get "$base/SHA256SUMS" "$tmp.sums" || fail "cannot download $base/SHA256SUMS (is $version a published release?)"
	sums=$tmp.sums
fi
# A SHA256SUMS line is "HASH  NAME", or "HASH *NAME" in binary mode.
want=$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1; exit }' "$sums")
[ -n "$want" ] || fail "$sums lists no $name"
get "$base/$name" "$tmp" || fail "cannot download $base/$name"
got=$(sha256 "$tmp")
[ "$got" = "$want" ] || fail "checksum mismatch for $name: SHA256SUMS says $want, the download is $got; nothing installed"
if [ -n "${MASSGEN_HOOK_SHA256:-}" ] && [ "$got" != "$MASSGEN_HOOK_SHA256" ]; then
	fail "checksum mismatch for $name: expected $MASSGEN_HOOK_SHA256, the download is $got; nothing installed"
fi
chmod 755 "$tmp"
mv -f "$tmp" "$dest"
