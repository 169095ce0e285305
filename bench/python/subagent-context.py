#!/usr/bin/env python3
"""SubagentStart hook (seed 004, hook 2): tell a new subagent where and what
to write, with the last lines of the ego's and the coordinator's newest
scratchpads.

Reads the event on stdin; prints
{"hookSpecificOutput": {"hookEventName": "SubagentStart", "additionalContext": ...}}.
Fails open.
"""
import datetime
import json
import os
import re
import sys

REQUIRED = ["What I did", "Cross-agent observations", "Unresolved"]
DEFAULT_AGENT = "general-purpose"
TAIL_LINES = 3
DATED = re.compile(r"\d{4}-\d{2}-\d{2}\.md")


def today():
    # MASSGEN_HOOK_NOW pins the clock for the benchmark and its test, as it
    # does for massgen-hook; a real session uses the local date.
    now = os.environ.get("MASSGEN_HOOK_NOW")
    if now:
        return datetime.datetime.fromisoformat(now.replace("Z", "+00:00")).astimezone().date().isoformat()
    return datetime.date.today().isoformat()


def newest(directory):
    """The latest-dated YYYY-MM-DD.md in directory (by name), or None."""
    try:
        names = [n for n in os.listdir(directory) if DATED.fullmatch(n)]
    except FileNotFoundError:
        return None
    return os.path.join(directory, max(names)) if names else None


def tail(path, n):
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        return f.read().rstrip("\n \t").splitlines()[-n:]


def main():
    event = json.load(sys.stdin)
    project = os.environ.get("CLAUDE_PROJECT_DIR") or event.get("cwd") or os.getcwd()
    agent = event.get("agent_type") or DEFAULT_AGENT
    day = today()
    root = os.path.join(project, ".claude", "scratchpad")
    text = ["Today is %s." % day,
            "Before you finish, write your scratchpad to .claude/scratchpad/%s/%s.md with these Markdown headings:"
            % (agent, day)]
    text += ["## " + s for s in REQUIRED]
    text.append("You cannot complete until that file exists with every heading.")
    for who, title in (("ego", "Latest ego assessment"), ("coordinator", "Latest coordinator scratchpad")):
        path = newest(os.path.join(root, who))
        if path:
            lines = tail(path, TAIL_LINES)
            if lines:
                text.append("\n%s (%s), last lines:\n%s" % (title, os.path.relpath(path, project), "\n".join(lines)))
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "SubagentStart", "additionalContext": "\n".join(text)}}))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # fail open: the agent starts without the reminder
        print("subagent-context.py: %s" % e, file=sys.stderr)
        print("{}")
