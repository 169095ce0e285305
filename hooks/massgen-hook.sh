#!/bin/sh
# The Claude Code plugin's hook launcher: runs the plugin's bin/massgen-hook.
# On first use it puts one there, fastest first:
#   1. bin/massgen-hook_OS_ARCH, a binary shipped inside the plugin;
#   2. the release binary named in hooks/SHA256SUMS (the plugin's pinned
#      release), downloaded and checked against that file;
#   3. a build from the plugin's source with Go, in the background: Go's
#      first build takes longer than a hook may, so calls proceed without
#      massgen-hook (exit 1, one line saying so) until it is done.
# A failure exits 1, which Claude Code treats as a non-blocking error: the
# agent proceeds, and the user sees the line on stderr.
root=${CLAUDE_PLUGIN_ROOT:-$(dirname "$0")/..}
bin=$root/bin/massgen-hook
[ -x "$bin" ] && exec "$bin" "$@"
sh "$root/hooks/first-use.sh" "$root" || exit 1
exec "$bin" "$@"
