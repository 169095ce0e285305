#!/usr/bin/env bash
# Runs every Go fuzz target of the module for FUZZTIME each, one after
# another (`make fuzz`). Targets are found by grep, so a new one is never
# left out. A crasher is written by go test to <package>/testdata/fuzz/
# <Target>/: keep it, it becomes a regression seed that plain `go test` runs.
#
#   FUZZTIME      time per target (default 10s)
#   FUZZPARALLEL  fuzzing workers per target (default: go test's, GOMAXPROCS)
#   FUZZLOGS      where each target's full output goes (default: a temp dir)
set -uo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-10s}
logs=${FUZZLOGS:-$(mktemp -d "${TMPDIR:-/tmp}/massgen-hook-fuzz.XXXXXX")}
mkdir -p "$logs"
parallel=()
if [ -n "${FUZZPARALLEL:-}" ]; then
	parallel=(-parallel "$FUZZPARALLEL")
fi

# file:name of every `func FuzzX(f *testing.F)` in a test file.
targets=$(grep -rEo --include='*_test.go' --exclude-dir=testdata --exclude-dir=.git '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . |
	sed -E 's/^\.\/(.*):func (Fuzz[A-Za-z0-9_]*)\(.*/\1 \2/' | sort)
if [ -z "$targets" ]; then
	echo "fuzz: no fuzz targets found" >&2
	exit 1
fi

# run_target PKG NAME LOG: one fuzzing run; its status is go test's. A
# failure that wrote no new input under testdata/fuzz/NAME and says only
# "context deadline exceeded" is Go's own race at the -fuzztime boundary
# (golang/go#75804, fixed in Go 1.27): the target is run once more.
corpus_files() { ls "$1/testdata/fuzz/$2" 2>/dev/null | sort; }
run_target() {
	go test -run '^$' -fuzz "^$2\$" -fuzztime "$fuzztime" "${parallel[@]}" "$1" </dev/null >"$3" 2>&1
}
spurious() { # PKG NAME LOG BEFORE
	[ "$(corpus_files "$1" "$2")" = "$4" ] &&
		grep -q 'context deadline exceeded' "$3" &&
		! grep -qE '^\s+[a-z_]+_test\.go:[0-9]+:|panic:|Failing input written' "$3"
}

total=0
failed=()
while read -r file name; do
	pkg=./$(dirname "$file")
	total=$((total + 1))
	log="$logs/$(printf '%s' "${pkg#./}" | tr / _).$name.log"
	start=$SECONDS
	before=$(corpus_files "$pkg" "$name")
	result=ok
	if ! run_target "$pkg" "$name" "$log"; then
		result=FAIL
		if spurious "$pkg" "$name" "$log" "$before"; then
			mv "$log" "$log.deadline"
			if run_target "$pkg" "$name" "$log"; then
				result="ok (rerun after go#75804 deadline race)"
			elif spurious "$pkg" "$name" "$log" "$before"; then
				result="ok (go#75804 deadline race twice, no crasher)"
			fi
		fi
	fi
	[ "$result" = FAIL ] && failed+=("$pkg $name")
	execs=$(grep -Eo 'execs: [0-9]+' "$log" | tail -1)
	interesting=$(grep -Eo 'new interesting: [0-9]+ \(total: [0-9]+\)' "$log" | tail -1)
	printf '%-4s %-16s %-28s %3ds  %s, %s\n' "${result%% *}" "$pkg" "$name" $((SECONDS - start)) "${execs:-execs: none}" "${interesting:-no fuzzing (a seed failed)}"
	if [ "$result" = FAIL ]; then
		grep -v '^fuzz: elapsed' "$log" | sed 's/^/     | /' | head -40
	elif [ "$result" != ok ]; then
		echo "     | $result"
	fi
done <<<"$targets"

echo "fuzz: $total targets, ${#failed[@]} failed, $fuzztime each; logs in $logs"
if [ ${#failed[@]} -gt 0 ]; then
	printf 'fuzz: FAILED %s\n' "${failed[@]}"
	echo "fuzz: a crasher is kept in <package>/testdata/fuzz/<Target>/ (a regression seed from now on); rerun it with go test -run '<Target>/<file>' <package>." >&2
	exit 1
fi
