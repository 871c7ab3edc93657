#!/usr/bin/env python3
"""Instruction mix of one kernel's SASS and of its largest loop (the steady state of a DP kernel).

    cuobjdump -sass libwarplab_gpu.a | python3 scripts/device/sass_loop_mix.py PATTERN [CELLS_PER_ITERATION [DUMP]]

PATTERN: a substring of the mangled kernel name. With CELLS_PER_ITERATION (0: none) the loop's
instructions per DP cell are printed too; with DUMP the function's SASS is written there. Lines
start with "ALL" so that the device script's summary grep keeps them.
"""
import collections
import re
import sys


def main():
    pattern = sys.argv[1]
    cells = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    dump = open(sys.argv[3], "w") if len(sys.argv) > 3 else None
    ins, on, name = [], False, ""
    for line in sys.stdin:
        if "Function :" in line:
            if ins:
                break  # the first matching function only
            on = pattern in line
            name = line.split("Function :")[1].strip()
            continue
        if not on:
            continue
        if dump:
            dump.write(line)
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
    if not ins:
        print(f"ALL 0 instructions: no function matching {pattern}")
        return

    def opcode(text):
        text = re.sub(r"^@!?U?P[0-9T]+\s+", "", text)
        return text.split()[0]

    loop = None  # the backward branch spanning the most instructions
    for addr, text in ins:
        m = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", text)
        if m:
            target = int(m.group(1), 16)
            if target < addr and (loop is None or addr - target > loop[1] - loop[0]):
                loop = (target, addr)
    print(f"ALL {len(ins)} instructions in {name[:110]}")
    if loop is None:
        print("ALL no loop found")
        return
    body = [opcode(t) for a, t in ins if loop[0] <= a <= loop[1]]
    # A rare branch inside the loop (a pair's hand-over, a tail) is code jumped over by a
    # forward branch: the largest such block, left out, gives the common path.
    skip = (0, 0)
    for addr, text in ins:
        m = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", text)
        if m and loop[0] <= addr < int(m.group(1), 16) <= loop[1]:
            target = int(m.group(1), 16)
            if target - addr > skip[1] - skip[0]:
                skip = (addr, target)
    common = sum(1 for a, _ in ins if loop[0] <= a <= loop[1] and not skip[0] < a < skip[1])
    per = f", {len(body) / cells:.2f} per cell ({cells} cells per iteration)" if cells else ""
    print(f"ALL loop {loop[0]:#x}..{loop[1]:#x}: {len(body)} instructions{per}")
    if skip[1]:
        per = f", {common / cells:.2f} per cell" if cells else ""
        print(f"ALL loop without the block {skip[0]:#x}..{skip[1]:#x}: {common} instructions{per}")
    for op, count in collections.Counter(body).most_common(20):
        print(f"  {count:5d} {op}")


if __name__ == "__main__":
    main()
