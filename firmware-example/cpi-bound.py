#!/usr/bin/env python3
"""A worst-case cycles-per-instruction bound for the Cortex-M4 from QEMU's instruction trace.

Usage: cpi-bound.py TRACE  (run.sh cpi makes TRACE: `qemu-system-arm ... -d exec,nochain,in_asm`)

QEMU counts instructions, not cycles. This weighs the dynamic instruction mix of the trace (every
translated block's instructions times how often the block ran, after the firmware's clock
calibration loop) with the worst cycle count of each instruction class in the Cortex-M4
Technical Reference Manual (ARM DDI 0439, "Processor instruction timings" and the FPU's
instruction timings): loads 2 (no pipelining credited), taken immediate branches 3 (1 plus
up to 2 of pipeline refill, unaligned target included), register branches 4, LDM/STM/PUSH/POP
1 + registers (+3 when loading pc), VLDR/VSTR 2, VFMA/VMLA 3, VDIV/VSQRT 14, SDIV/UDIV 12,
everything else 1; every branch is counted as taken. The memory system is assumed to answer
without wait states (code in zero-wait SRAM/TCM, or hits in the STM32F4's ART flash cache):
flash wait states on cache misses are not covered.
"""
import re, sys, collections
tb = {}      # pc -> list of mnemonics
cur = None
execs = []
pat_exec = re.compile(r'^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/')
pat_ins = re.compile(r'^0x([0-9a-f]+):\s+((?:[0-9a-f]{4} ?)+)\s+(\S+)\s*(.*)$')
with open(sys.argv[1], errors='replace') as f:
    for line in f:
        if line.startswith('Trace'):
            m = pat_exec.match(line)
            if m: execs.append(int(m.group(1), 16))
            cur = None
        elif line.startswith('IN:'):
            cur = 'new'
        elif cur is not None:
            m = pat_ins.match(line)
            if m:
                pc = int(m.group(1), 16)
                if cur == 'new':
                    cur = pc; tb[pc] = []
                tb[cur].append((m.group(3), m.group(4), len(m.group(2).split())))
cnt = collections.Counter(execs)
# the calibration loop: a TB of exactly subs + bne executed most
cal = [pc for pc, n in cnt.most_common(5) if pc in tb and [i[0] for i in tb[pc]] == ['subs', 'bne']]
last_cal = max(i for i, pc in enumerate(execs) if pc in cal) if cal else 0
cnt = collections.Counter(execs[last_cal + 1:])
mix = collections.Counter()
total = 0
for pc, n in cnt.items():
    for mn, ops, hw in tb.get(pc, []):
        base = mn.split('.')[0]
        mix[(base, ops.count(',') + 1 if base in ('push','pop','ldm','stm','vpush','vpop','vldmia','vstmia','vldmdb','vstmdb','ldmia','stmia','stmdb','ldmdb') else 0)] += n
        total += n
print("instructions after calibration:", total)
def regs(ops):
    m = re.search(r'\{([^}]*)\}', ops)
    if not m: return 1
    n = 0
    for part in m.group(1).split(','):
        part = part.strip()
        if '-' in part:
            a, b = part.split('-'); n += int(b.strip()[1:]) - int(a.strip()[1:]) + 1
        else: n += 1
    return n
# worst-case Cortex-M4 cycles (ARM DDI 0439B, 3.3 "Cortex-M4 instruction set summary" and the
# FPU's 7.2.3 table), zero-wait-state memory
cyc = collections.Counter(); cnt_cls = collections.Counter()
for pc, n in cnt.items():
    for mn, ops, hw in tb.get(pc, []):
        b = mn.split('.')[0]
        if b in ('vdiv', 'vsqrt'): c, k = 14, 'fp divide/sqrt'
        elif b in ('vpush', 'vpop', 'vldmia', 'vstmia', 'vldmdb', 'vstmdb', 'vldm', 'vstm'): c, k = 1 + regs(ops), 'fp load/store multiple'
        elif b in ('vldr', 'vstr'): c, k = 2, 'fp load/store'
        elif b in ('vmla', 'vmls', 'vnmla', 'vnmls', 'vfma', 'vfms', 'vfnma', 'vfnms'): c, k = 3, 'fp multiply-accumulate'
        elif b in ('vmov',) and ('r' in ops.split(',')[0] or re.search(r',\s*r\d', ops)): c, k = 2, 'fp<->core move'
        elif b == 'vmrs': c, k = 1, 'fp other'
        elif b.startswith('v'): c, k = 1, 'fp arithmetic'
        elif b in ('push', 'pop', 'ldm', 'stm', 'ldmia', 'stmia', 'stmdb', 'ldmdb'):
            c, k = 1 + regs(ops) + (3 if 'pc' in ops else 0), 'load/store multiple'
        elif b in ('ldrd', 'strd'): c, k = 3, 'load/store double'
        elif b.startswith('ldr') or b.startswith('ldrex'): c, k = 2 + (3 if ops.startswith('pc') else 0), 'load'
        elif b.startswith('str'): c, k = 1, 'store'
        elif b in ('sdiv', 'udiv'): c, k = 12, 'integer divide'
        elif b in ('bx', 'blx', 'tbb', 'tbh'):
            c, k = 4, 'branch to a register'
        elif b in ('b', 'bl', 'cbz', 'cbnz') or (b.startswith('b') and len(b) == 3 and b not in ('bic', 'bfi', 'bfc')):
            c, k = 3, 'branch (immediate)'
        elif b in ('smull', 'umull', 'smlal', 'umlal'): c, k = 1, 'long multiply'
        else: c, k = 1, 'other'
        cyc[k] += c * n; cnt_cls[k] += n
tc = sum(cyc.values())
for k in sorted(cnt_cls, key=lambda k: -cnt_cls[k]):
    print(f"{k:24s} {cnt_cls[k]/total*100:6.2f}% of instructions, {cyc[k]/cnt_cls[k]:5.2f} cycles each at worst")
print(f"worst-case cycles per instruction: {tc/total:.3f}")
