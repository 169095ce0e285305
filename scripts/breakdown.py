#!/usr/bin/env python3
"""Where a hook process's page faults go, by phase.

Usage: scripts/breakdown.py NAME=perf.data[,perf.data...] ...

Each column NAME gives the mean over its recordings (runs of one
command). Each perf.data is one process recorded with
    perf record -g -e page-faults -c 1 -o perf.data CMD
(a sample per page fault, with its call chain). Every fault is charged to
one phase, by the first rule below that a frame of its chain matches, and
the table gives each phase's count per recording. On a machine where a
fault costs tens of microseconds (a virtual machine whose host backs each
new page on first touch), faults are most of a hook's cost; the floor
(bench/floor) shows what the runtime alone faults in.
"""
import re
import subprocess
import sys

# (phase, pattern on any frame of the chain), first match wins.
PHASES = [
    ("package init", r"^[^()]+\.init(\.\d+|\.func\d+)*$|^runtime\.doInit1?$"),
    ("config and rules", r"massgen-hook/cli\.\(\*app\)\.(loadRules|hookConfig|loadConfig)$|/config\.Load$|/engine\.Compile$"),
    ("event: read and parse", r"massgen-hook/cli\.readEvent$|massgen-hook/cli\.readInput|/protocol\.ParseEvent$|/dialect\.Detect$|io\.ReadAll$"),
    ("answer", r"/dialect\.\(\*Dialect\)\.Answer$|/protocol\.Write$"),
    ("state and audit", r"massgen-hook/cli\.\(\*app\)\.record$|/state\.|Settle$"),
    ("checks", r"/checks[./]|/engine\.|/shellcmd\.|/scratchpad\.|/inbox\."),
    ("dispatch and project", r"spf13/cobra|massgen-hook/cli\."),
]
OTHER = "runtime: start, heap, stacks, threads"


def phases(path):
    out = subprocess.run(["perf", "script", "-i", path, "-F", "ip,sym"],
                         capture_output=True, text=True, check=True).stdout
    counts = {name: 0 for name, _ in PHASES}
    counts[OTHER] = 0
    for block in out.split("\n\n"):
        frames = [re.sub(r"\+0x[0-9a-f]+$", "", l.split(None, 1)[1])
                  for l in block.strip().splitlines() if len(l.split(None, 1)) == 2]
        if not frames:
            continue
        for name, pat in PHASES:
            if any(re.search(pat, f) for f in frames):
                counts[name] += 1
                break
        else:
            counts[OTHER] += 1
    return counts


def mean(paths):
    runs = [phases(p) for p in paths]
    return {k: sum(r[k] for r in runs) / len(runs) for k in runs[0]}


def main():
    cols = []
    for arg in sys.argv[1:]:
        name, _, files = arg.partition("=")
        cols.append((name, mean(files.split(","))))
    names = [OTHER] + [n for n, _ in PHASES]
    print("| phase | " + " | ".join(n for n, _ in cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for n in names:
        print(f"| {n} | " + " | ".join(f"{c[n]:.0f}" for _, c in cols) + " |")
    print("| **total** | " + " | ".join(f"**{sum(c.values()):.0f}**" for _, c in cols) + " |")


if __name__ == "__main__":
    main()
