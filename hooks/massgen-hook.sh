#!/bin/sh
# The Claude Code plugin's hook launcher: runs the plugin's massgen-hook,
# building it once on first use (Go must be installed for that; `make build`
# in the plugin folder does the same ahead of time). A failure exits 1, which
# Claude Code treats as a non-blocking error: the agent proceeds.
root=${CLAUDE_PLUGIN_ROOT:-$(dirname "$0")/..}
bin=$root/bin/massgen-hook
if [ ! -x "$bin" ]; then
	tmp=$root/bin/.massgen-hook.$$
	mkdir -p "$root/bin" &&
		(cd "$root" && CGO_ENABLED=0 go build -trimpath -o "$tmp" ./cmd/massgen-hook) >&2 &&
		mv -f "$tmp" "$bin" || {
		rm -f "$tmp"
		echo "massgen-hook plugin: cannot build $bin (is Go installed?); run make build in $root" >&2
		exit 1
	}
fi
exec "$bin" "$@"
