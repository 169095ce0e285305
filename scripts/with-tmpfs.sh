#!/bin/sh
# Runs a command with TMPDIR on a fresh folder of a tmpfs, removed
# afterwards (`make test`'s race-checked packages): their tests sync records
# to disk and create thousands of files, and on a busy disk that waiting,
# not the work, is most of their time. The tmpfs is TEST_TMPFS (default
# /dev/shm); without one where programs can run, or with TEST_TMPFS empty,
# the command runs with TMPDIR as it is. So does a tmpfs with less than
# 2 GiB free (a container's /dev/shm is often 64 MiB): a test must not fail
# for want of room the disk has.
tmpfs=${TEST_TMPFS-/dev/shm}
tmp=
free_kib() { df -Pk "$1" 2>/dev/null | awk 'NR == 2 { print $4 }'; }
if [ -n "$tmpfs" ] && [ -d "$tmpfs" ] && [ "$(free_kib "$tmpfs")" -ge 2097152 ] 2>/dev/null &&
	tmp=$(mktemp -d "$tmpfs/massgen-hook-test.XXXXXX" 2>/dev/null); then
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
