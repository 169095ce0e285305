#!/usr/bin/env python3
"""Stop hook (seed 004, hook 4): if any subagent wrote a scratchpad today
(the sentinel for delegation), the coordinator must have written today's.

Reads the event on stdin; prints {} to let the session end, or
{"decision": "block", "reason": ...}. Fails closed only when delegation is
detected without a coordinator scratchpad; open otherwise and on errors.
"""
import datetime
import glob
import json
import os
import sys

RESERVED = ("coordinator", "ego")


def today():
    # MASSGEN_HOOK_NOW pins the clock for the benchmark and its test, as it
    # does for massgen-hook; a real session uses the local date.
    now = os.environ.get("MASSGEN_HOOK_NOW")
    if now:
        return datetime.datetime.fromisoformat(now.replace("Z", "+00:00")).astimezone().date().isoformat()
    return datetime.date.today().isoformat()


def main():
    event = json.load(sys.stdin)
    project = os.environ.get("CLAUDE_PROJECT_DIR") or event.get("cwd") or os.getcwd()
    root = os.path.join(project, ".claude", "scratchpad")
    day = today()
    # The sentinel: any .claude/scratchpad/*/YYYY-MM-DD.md for today outside
    # coordinator/ and ego/.
    delegated = sorted(
        os.path.basename(os.path.dirname(p))
        for p in glob.glob(os.path.join(glob.escape(root), "*", day + ".md"))
        if os.path.basename(os.path.dirname(p)) not in RESERVED and os.path.isfile(p)
    )
    if not delegated:
        print("{}")
        return
    coordinator = os.path.join(root, "coordinator", day + ".md")
    if os.path.isfile(coordinator):
        with open(coordinator, encoding="utf-8-sig", errors="replace") as f:
            if f.read().strip():
                print("{}")
                return
    print(json.dumps({
        "decision": "block",
        "reason": "Multi-agent delegation detected (today's scratchpads from: %s) but no coordinator scratchpad "
                  "for today. Write to .claude/scratchpad/coordinator/%s.md before ending session."
                  % (", ".join(delegated), day),
    }))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # fail open
        print("stop.py: %s" % e, file=sys.stderr)
        print("{}")
