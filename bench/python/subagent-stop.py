#!/usr/bin/env python3
"""SubagentStop hook (seed 004, hook 3): block a subagent that has not written
today's scratchpad with the three required sections.

Reads the event on stdin; prints {} to let the agent finish, or
{"decision": "block", "reason": ...} to send it back. Fails closed on a
missing or incomplete scratchpad, open on any script error.
"""
import datetime
import json
import os
import re
import sys

REQUIRED = ["What I did", "Cross-agent observations", "Unresolved"]
DEFAULT_AGENT = "general-purpose"  # Claude Code sends agent_type "" on SubagentStop

HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def today():
    # MASSGEN_HOOK_NOW pins the clock for the benchmark and its test, as it
    # does for massgen-hook; a real session uses the local date.
    now = os.environ.get("MASSGEN_HOOK_NOW")
    if now:
        return datetime.datetime.fromisoformat(now.replace("Z", "+00:00")).astimezone().date().isoformat()
    return datetime.date.today().isoformat()


def normalize(text):
    text = re.sub(r"[*_`]", "", text)
    text = " ".join(text.split())
    if text.endswith(":"):
        text = text[:-1].strip()
    return text.lower()


def headings(text):
    """The Markdown headings of text, normalized, outside fenced code."""
    found, fence = set(), None
    for line in text.splitlines():
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = HEADING.match(line)
        if h:
            found.add(normalize(h.group(1) or ""))
    return found


def main():
    event = json.load(sys.stdin)
    project = os.environ.get("CLAUDE_PROJECT_DIR") or event.get("cwd") or os.getcwd()
    agent = event.get("agent_type") or DEFAULT_AGENT
    rel = ".claude/scratchpad/%s/%s.md" % (agent, today())
    path = os.path.join(project, rel)
    complete = False
    if os.path.isfile(path):
        with open(path, encoding="utf-8-sig", errors="replace") as f:
            have = headings(f.read())
        complete = all(normalize(s) in have for s in REQUIRED)
    if complete:
        print("{}")
        return
    print(json.dumps({
        "decision": "block",
        "reason": "Scratchpad missing or incomplete. Write to %s with all three required sections "
                  "(## What I did, ## Cross-agent observations, ## Unresolved) before completing." % rel,
    }))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # fail open: a broken hook must not trap the agent
        print("subagent-stop.py: %s" % e, file=sys.stderr)
        print("{}")
