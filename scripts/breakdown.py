#!/usr/bin/env python3
"""Where a hook process's page faults go, by phase or by kind of memory.

Usage: scripts/breakdown.py NAME=perf.data[,perf.data...] ...
       scripts/breakdown.py --regions NAME=BINARY:perf.data[,perf.data...] ...

Each column NAME gives the mean over its recordings (runs of one
command). Each perf.data is one process recorded with
    perf record -g -e page-faults -c 1 -o perf.data CMD
(a sample per page fault, with its call chain). Every fault is charged to
one phase, by the first rule below that a frame of its chain matches, and
the table gives each phase's count per recording. On a machine where a
fault costs tens of microseconds (a virtual machine whose host backs each
new page on first touch), faults are most of a hook's cost; the floor
(bench/floor) shows what the runtime alone faults in.

With --regions, each perf.data is recorded with the faulting address
    perf record -d -e page-faults -c 1 -o perf.data CMD
and every fault is charged to the memory it touched: the binary's code,
read-only data, data and zeroed data (the program headers of BINARY, the
command's binary, say where they are; a stripped binary has them too), the Go heap, or the runtime's
other mappings (stacks, span and page-allocator metadata). Pages of the
binary come from the page cache, several at a fault; every anonymous page
(heap, stacks, data written, .bss) is a fresh page of memory.
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


REGIONS = ["code", "read-only data", "data (written)", "zeroed data (.bss)",
           "heap", "stacks and runtime metadata"]


def segments(binary):
    """The LOAD segments of binary as (start, end, region)."""
    out = subprocess.run(["readelf", "-lW", binary], capture_output=True, text=True, check=True).stdout
    segs = []
    for line in out.splitlines():
        f = line.split()
        if not f or f[0] != "LOAD":
            continue
        va, filesz, memsz, flags = int(f[2], 16), int(f[4], 16), int(f[5], 16), "".join(f[6:-1])
        if "W" in flags:
            segs += [(va, va + filesz, "data (written)"), (va + filesz, va + memsz, "zeroed data (.bss)")]
        else:
            segs.append((va, va + memsz, "code" if "E" in flags else "read-only data"))
    return segs


def regions(binary, path):
    segs = segments(binary)
    out = subprocess.run(["perf", "script", "-i", path, "-F", "addr"],
                         capture_output=True, text=True, check=True).stdout
    counts = {name: 0 for name in REGIONS}
    for word in out.split():
        addr = int(word, 16)
        for lo, hi, name in segs:
            if lo <= addr < hi:
                counts[name] += 1
                break
        else:
            # The runtime maps its own structures high; the heap's arenas
            # are below them.
            counts["stacks and runtime metadata" if addr >= 0x7f0000000000 else "heap"] += 1
    return counts


def mean(paths, count=None):
    count = count or phases
    runs = [count(p) for p in paths]
    return {k: sum(r[k] for r in runs) / len(runs) for k in runs[0]}


def main():
    args, names, label = sys.argv[1:], [OTHER] + [n for n, _ in PHASES], "phase"
    by_region = bool(args) and args[0] == "--regions"
    if by_region:
        args, names, label = args[1:], REGIONS, "memory"
    cols = []
    for arg in args:
        name, _, files = arg.partition("=")
        count = phases
        if by_region:
            binary, _, files = files.partition(":")
            count = lambda p, binary=binary: regions(binary, p)
        cols.append((name, mean(files.split(","), count)))
    print(f"| {label} | " + " | ".join(n for n, _ in cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for n in names:
        print(f"| {n} | " + " | ".join(f"{c[n]:.0f}" for _, c in cols) + " |")
    print("| **total** | " + " | ".join(f"**{sum(c.values()):.0f}**" for _, c in cols) + " |")


if __name__ == "__main__":
    main()
