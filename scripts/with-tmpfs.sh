#!/bin/sh
# Runs a command with TMPDIR on a fresh folder of a tmpfs, removed
# afterwards (`make test`'s race-checked packages): their tests sync records
# to disk and create thousands of files, and on a busy disk that waiting,
# not the work, is most of their time. The tmpfs is TEST_TMPFS (default
# /dev/shm); without one where programs can run, or with TEST_TMPFS empty,
# the command runs with TMPDIR as it is.
tmpfs=${TEST_TMPFS-/dev/shm}
tmp=
if [ -n "$tmpfs" ] && [ -d "$tmpfs" ] && tmp=$(mktemp -d "$tmpfs/massgen-hook-test.XXXXXX" 2>/dev/null); then
	# A tmpfs mounted noexec would fail every test that runs a program it wrote.
	if printf '#!/bin/sh\n' >"$tmp/probe" && chmod 755 "$tmp/probe" && "$tmp/probe" 2>/dev/null; then
		rm -f "$tmp/probe"
		TMPDIR=$tmp
		export TMPDIR
	else
		rm -rf "$tmp"
		tmp=
	fi
fi
"$@"
status=$?
if [ -n "$tmp" ]; then
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
fi
exit $status
