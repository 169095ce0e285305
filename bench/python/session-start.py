#!/usr/bin/env python3
"""SessionStart hook (seed 004, hook 1): on a fresh session (source
"startup"), inject the newest coordinator scratchpad (last 25 lines), the
newest ego assessment (last 20 lines) and `git log --oneline -5`.

Reads the event on stdin; prints
{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ...}},
or {} on resume, clear and compact or when there is nothing to say. Fails open.
"""
import datetime
import json
import os
import re
import subprocess
import sys

COORDINATOR_LINES = 25
EGO_LINES = 20
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


def latest(project, who, title, n):
    path = newest(os.path.join(project, ".claude", "scratchpad", who))
    if not path:
        return None
    lines = tail(path, n)
    if not lines:
        return None
    return "## %s (%s)\n%s" % (title, os.path.relpath(path, project), "\n".join(lines))


def recent_commits(project):
    try:
        out = subprocess.run(["git", "log", "--oneline", "-5"], cwd=project,
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0 or not out.stdout.strip():
        return None  # not a repository, or no commits yet
    return "## Recent commits (git log --oneline -5)\n" + out.stdout.rstrip("\n")


def main():
    event = json.load(sys.stdin)
    if event.get("source") != "startup":
        print("{}")  # resume, clear, compact: the session keeps what it had
        return
    project = os.environ.get("CLAUDE_PROJECT_DIR") or event.get("cwd") or os.getcwd()
    parts = [p for p in (
        latest(project, "coordinator", "Latest coordinator scratchpad", COORDINATOR_LINES),
        latest(project, "ego", "Latest ego assessment", EGO_LINES),
        recent_commits(project),
    ) if p]
    if not parts:
        print("{}")
        return
    context = "Session context from the scratchpad protocol, %s.\n\n%s" % (today(), "\n\n".join(parts))
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}}))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # fail open: the session starts without the context
        print("session-start.py: %s" % e, file=sys.stderr)
        print("{}")
