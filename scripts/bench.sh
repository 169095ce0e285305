#!/usr/bin/env bash
# Whole-process benchmark of each hook against the floor (a bare static Go
# binary that reads the event and prints {}), alternating runs, medians and
# ratios (see bench/README.md). Writes the table to BENCHMARKS.md.
# RUNS=200 by default; ONLY=name runs one case.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-200}
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/floor ./bench/floor
[ -x bin/massgen-hook ] || make -s build

work=$(mktemp -d "${TMPDIR:-/tmp}/massgen-hook-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
proj=$work/project
sp=$proj/.claude/scratchpad
mkdir -p "$sp/spec-writer" "$sp/coordinator" "$sp/ego"
today=2026-11-20
printf '## What I did\nWrote the spec.\n## Cross-agent observations\nNone.\n## Unresolved\nNone.\n' > "$sp/spec-writer/$today.md"
printf '## What I did\nDelegated the spec.\n' > "$sp/coordinator/$today.md"
printf 'Assessment: fine.\n' > "$sp/ego/2026-11-19.md"

# session-start over 10,000 dated files across 50 agents.
big=$work/big
for a in $(seq -w 1 48); do mkdir -p "$big/.claude/scratchpad/agent$a"; done
mkdir -p "$big/.claude/scratchpad/coordinator" "$big/.claude/scratchpad/ego"
python3 - "$big/.claude/scratchpad" <<'PY'
import datetime, os, sys
root = sys.argv[1]
dirs = sorted(os.listdir(root))
start = datetime.date(2000, 1, 1)
for i in range(10000):
    d = dirs[i % len(dirs)]
    day = start + datetime.timedelta(days=i // len(dirs))
    with open(os.path.join(root, d, day.isoformat() + ".md"), "w") as f:
        f.write("## What I did\nline\n## Cross-agent observations\nline\n## Unresolved\nline\n")
PY

# The hook engine: a project with rules, none of which matches a main-thread
# Bash call, and one whose single rule runs a trivial handler (the floor
# itself: it answers {}, no opinion) on every Bash call.
rules=$work/rules
mkdir -p "$rules/.claude"
cat > "$rules/.claude/massgen-hook.yaml" <<'YAML'
hooks:
  PreToolUse:
    - matcher: "Write|Edit|MultiEdit"
      handler: ./hooks/check-write.sh
      fail_closed: true
    - matcher: "mcp__*"
      handler: ./hooks/mcp.sh
    - matcher: "re:Notebook.*"
      handler: ./hooks/notebook.sh
  PostToolUse:
    - handler: ./hooks/log.sh
agents:
  - id: reviewer
    hooks:
      PreToolUse:
        - matcher: "Bash"
          handler: ./hooks/reviewer-bash.sh
YAML
onehook=$work/onehook
mkdir -p "$onehook/.claude"
printf 'hooks:\n  PreToolUse:\n    - matcher: Bash\n      handler: %s\n' "$PWD/bin/floor" > "$onehook/.claude/massgen-hook.yaml"

# Every guard on: the defaults plus the stateful ones, so each call takes
# the budget's lock and rewrites its record, reads the retry streak, checks
# the round clock, and appends an audit line.
guards=$work/guards
mkdir -p "$guards/.claude"
cat > "$guards/.claude/massgen-hook.yaml" <<'YAML'
hooks:
  PreToolUse:
    - {type: builtin, handler: budget, options: {limits: {"*": 100000000}}}
    - {type: builtin, handler: smart_retry}
    - {type: builtin, handler: round_timeout, options: {initial_timeout: 100000000}}
YAML

ev=$work/events; mkdir -p "$ev"
printf '{"session_id":"b1","cwd":"%s","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a1","agent_type":"spec-writer"}' "$proj" > "$ev/subagent-stop.json"
printf '{"session_id":"b1","cwd":"%s","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a2","agent_type":"missing-writer"}' "$proj" > "$ev/subagent-stop-block.json"
printf '{"session_id":"b1","cwd":"%s","hook_event_name":"Stop","stop_hook_active":false}' "$proj" > "$ev/stop.json"
printf '{"session_id":"b1","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' "$proj" > "$ev/session-start.json"
printf '{"session_id":"b1","cwd":"%s","hook_event_name":"SessionStart","source":"startup"}' "$big" > "$ev/session-start-big.json"
printf '{"session_id":"b1","cwd":"%s","hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"spec-writer"}' "$proj" > "$ev/subagent-start.json"
printf '{"session_id":"b1","transcript_path":"/t.jsonl","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status --short && go test ./... 2>&1 | tail -20 && grep -rn \\"TODO\\" internal/ cmd/ | head -50 && git log --oneline -10 && ls -la bin/ && make build && echo done-with-200-chars-of-command","description":"Run checks"},"tool_use_id":"toolu_01"}' "$proj" > "$ev/pre-tool-use.json"
python3 - "$ev/post-tool-use.json" "$proj" <<'PY'
import json, sys
content = ("x" * 1023 + "\n") * 1024
json.dump({"session_id": "b1", "cwd": sys.argv[2], "hook_event_name": "PostToolUse", "tool_name": "Read",
           "tool_input": {"file_path": "big.txt"}, "tool_response": {"type": "text", "file": {"content": content}},
           "tool_use_id": "toolu_02"}, open(sys.argv[1], "w"))
PY

case_json() { # name target max subcommand event-file [project]
  local p=${6:-$proj}
  printf '{"name":"%s","target":"%s","max_ratio":%s,"reference":{"argv":["bin/floor"],"stdin":"%s"},"subject":{"argv":["bin/massgen-hook","%s"],"stdin":"%s","env":{"CLAUDE_PROJECT_DIR":"%s","MASSGEN_HOOK_NOW":"2026-11-20T10:00:00Z","TZ":"UTC"}}}' \
    "$1" "$2" "$3" "$5" "$4" "$5" "$p"
}
{
  echo '{"cases":['
  case_json "subagent-stop (pass)" "≤ 1.3×" 1.3 subagent-stop "$ev/subagent-stop.json"; echo ,
  case_json "subagent-stop (block, state write)" "≤ 1.3×" 1.3 subagent-stop "$ev/subagent-stop-block.json"; echo ,
  case_json "stop (delegation, coordinator present)" "≤ 1.3×" 1.3 stop "$ev/stop.json"; echo ,
  case_json "subagent-start" "≤ 1.3×" 1.3 subagent-start "$ev/subagent-start.json"; echo ,
  case_json "session-start (no git)" "≤ 2×" 2 session-start "$ev/session-start.json"; echo ,
  case_json "session-start, 10,000 files / 50 agents" "≤ 2×" 2 session-start "$ev/session-start-big.json" "$big"; echo ,
  case_json "pre-tool-use, 200-char Bash, default guards" "≤ 1.5×" 1.5 pre-tool-use "$ev/pre-tool-use.json"; echo ,
  case_json "pre-tool-use, 200-char Bash, every guard (state writes)" "≤ 1.5×" 1.5 pre-tool-use "$ev/pre-tool-use.json" "$guards"; echo ,
  case_json "pre-tool-use, rules configured, none matching" "≤ 1.5×" 1.5 pre-tool-use "$ev/pre-tool-use.json" "$rules"; echo ,
  # Against the floor that also starts one child (bench/floor -spawn): the
  # engine's only extra cost for one handler must be that process start.
  case_json "pre-tool-use, one trivial command handler" "≤ 1.5×" 1.5 pre-tool-use "$ev/pre-tool-use.json" "$onehook" |
    sed "s#\"argv\":\[\"bin/floor\"\]#\"argv\":[\"bin/floor\",\"-spawn\",\"$PWD/bin/floor\"]#"; echo ,
  case_json "post-tool-use, empty inbox, 1 MiB tool_response" "≤ 2×" 2 post-tool-use "$ev/post-tool-use.json"
  echo ']}'
} > "$work/spec.json"

go run ./bench/harness -runs "$runs" -warmup 10 ${ONLY:+-only "$ONLY"} -out "$work/table.md" "$work/spec.json"
{
  echo "# Benchmarks"
  echo
  echo "Produced by \`make bench\` (scripts/bench.sh) on $(date -u +%F). Whole-process wall time of each"
  echo "massgen-hook subcommand against the floor (bench/floor: reads the event, prints {}), runs alternated."
  echo "Binary size: $(stat -c %s bin/massgen-hook) bytes (floor: $(stat -c %s bin/floor) bytes)."
  echo
  cat "$work/table.md"
} > BENCHMARKS.md
