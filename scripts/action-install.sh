#!/bin/sh
# The GitHub Action's install step (action.yml): downloads the massgen-hook
# release binary for the runner into DIR, verified against the release's
# SHA256SUMS (and against INPUT_SHA256 when given), and puts DIR on the
# job's PATH.
# Usage: action-install.sh VERSION DIR
# Environment (set by GitHub Actions and action.yml): RUNNER_OS, RUNNER_ARCH,
# GITHUB_PATH, INPUT_SHA256; MASSGEN_HOOK_RELEASE_URL as in fetch-release.sh.
set -eu
[ $# -eq 2 ] || { echo "usage: action-install.sh VERSION DIR" >&2; exit 2; }
version=$1 dir=$2
case $version in
'' | main | master | HEAD)
	echo "massgen-hook action: no release version (got \"$version\"): use massgen/massgen-hook@vX.Y.Z or set with: version: vX.Y.Z" >&2
	exit 2
	;;
esac
# GitHub names the runner's platform X64/ARM64 and Linux/macOS/Windows;
# fetch-release.sh knows these names too.
export MASSGEN_HOOK_OS="${RUNNER_OS:-$(uname -s)}" MASSGEN_HOOK_ARCH="${RUNNER_ARCH:-$(uname -m)}"
export MASSGEN_HOOK_SHA256="${INPUT_SHA256:-}"
ext=
case $MASSGEN_HOOK_OS in Windows | windows) ext=.exe ;; esac
sh "$(dirname "$0")/fetch-release.sh" "$version" "$dir/massgen-hook$ext"
echo "$dir" >>"${GITHUB_PATH:?GITHUB_PATH is not set: run this inside GitHub Actions}"
"$dir/massgen-hook$ext" version
