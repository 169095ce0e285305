#!/bin/sh
# Puts the plugin's bin/massgen-hook in place on first use (see
# massgen-hook.sh); exit 0 when it is there, 1 with one line on stderr when
# not. MASSGEN_HOOK_RELEASE_URL overrides where releases are downloaded
# from; MASSGEN_HOOK_BUILD_WAIT (seconds, default 5) is how long a call
# waits for a build before it proceeds without massgen-hook.
root=$1
bin=$root/bin/massgen-hook
say() { echo "massgen-hook plugin: $*" >&2; }
mkdir -p "$root/bin" || { say "cannot create $root/bin"; exit 1; }

case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
MINGW* | MSYS* | CYGWIN*) os=windows ;;
*) os=unknown ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) arch=unknown ;;
esac

# 1. A binary shipped in the plugin.
shipped=$root/bin/massgen-hook_${os}_${arch}
if [ -x "$shipped" ]; then
	cp "$shipped" "$bin.$$" && mv -f "$bin.$$" "$bin" && exit 0
	rm -f "$bin.$$"
fi

# 2. The pinned release, verified against the plugin's SHA256SUMS.
sums=$root/hooks/SHA256SUMS
version=
[ -f "$sums" ] && version=$(sed -n "s/^[0-9a-f]\{64\} [ *]massgen-hook_\(.*\)_${os}_${arch}\(\.exe\)\{0,1\}\$/\1/p" "$sums" | head -n 1)
if [ -n "$version" ]; then
	if MASSGEN_HOOK_OS=$os MASSGEN_HOOK_ARCH=$arch sh "$root/scripts/fetch-release.sh" "$version" "$bin" "$sums"; then
		exit 0
	fi
	say "could not fetch release $version; building from source instead"
fi

# 3. A build from source, in the background so that a hook's timeout
# cannot kill it half way; one build at a time (bin/.building).
if ! command -v go >/dev/null; then
	say "no release binary for ${os}/${arch} and Go is not installed to build one; run make build in $root"
	exit 1
fi
lock=$root/bin/.building
# A build that died (machine off) left its lock: older than 10 minutes is stale.
[ -d "$lock" ] && [ -n "$(find "$lock" -maxdepth 0 -mmin +10 2>/dev/null)" ] && rmdir "$lock" 2>/dev/null
if mkdir "$lock" 2>/dev/null; then
	(
		tmp=$root/bin/.massgen-hook.$$
		if (cd "$root" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$tmp" ./cmd/massgen-hook) >"$root/bin/build.log" 2>&1; then
			mv -f "$tmp" "$bin"
		else
			rm -f "$tmp"
		fi
		rmdir "$lock"
	) </dev/null >/dev/null 2>&1 &
fi
wait=${MASSGEN_HOOK_BUILD_WAIT:-5}
while [ "$wait" -gt 0 ] && [ -d "$lock" ]; do
	sleep 1
	wait=$((wait - 1))
done
[ -x "$bin" ] && exit 0
if [ -d "$lock" ]; then
	say "building $bin with Go (first use; about 20 s); this call proceeds without massgen-hook"
else
	say "cannot build $bin (see $root/bin/build.log); run make build in $root"
fi
exit 1
