#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate the guest's ACPI CPPC SSDT from a preset of tools/vm/cppc/presets.

The SSDT adds a revision-3 _CPC package (23 entries: NumEntries, Revision
and the 21 registers of ACPI 6.5 section 8.4.6.1) to every processor
object of QEMU's DSDT (QEMU 7.2 names them \\_SB.CPUS.Cnnn, Processor
objects), and for presets marked osc=yes a \\_SB._OSC that acks CPPC v2.

The static capabilities are Integers.  The control and feedback registers
are SystemMemory registers in one reserved page, CPU_STRIDE bytes per CPU,
so that Linux ioremaps them (cppc_acpi.c refuses nothing but RAM) and a
test driver can advance the counters:

    +0  DesiredPerformanceRegister       32 bit
    +4  MinimumPerformanceRegister       32 bit
    +8  MaximumPerformanceRegister       32 bit
    +12 CPPCEnableRegister               32 bit
    +16 ReferencePerformanceCounter      64 bit
    +24 DeliveredPerformanceCounter      64 bit
    +32 PerformanceLimitedRegister       32 bit

The guest kernel must keep the page out of RAM: tools/vm/run passes
memmap=4K$BASE.  iasl (acpica-tools) compiles the ASL.

Usage: mkssdt.py --preset NAME --cpus N --base ADDR --out FILE.aml
       mkssdt.py --list
"""

import argparse
import os
import subprocess
import sys
import tempfile

PRESETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "presets")

CPU_STRIDE = 64
PAGE = 4096
MAX_CPUS = PAGE // CPU_STRIDE

# ACPI 6.5 table 8.30: \_SB._OSC platform-wide capabilities UUID
SB_OSC_UUID = "0811b06e-4a27-44f9-8d60-3cbbc22e7b48"
# include/linux/acpi.h: OSC_SB_CPC_SUPPORT | OSC_SB_CPCV2_SUPPORT |
# OSC_SB_CPC_DIVERSE_HIGH_SUPPORT | OSC_SB_CPC_FLEXIBLE_ADR_SPACE
OSC_CPPC_BITS = 0x20 | 0x40 | 0x1000 | 0x4000

NULL_REG = "ResourceTemplate () { Register (SystemMemory, 0, 0, 0, 0) }"


class PresetError(Exception):
    """A preset that is missing or malformed."""


def load_presets(path=PRESETS):
    """Return {name: dict} for every preset line of @path."""
    cols = ("name", "family", "model", "osc", "highest", "nominal", "lnl",
            "lowest", "nom_mhz", "low_mhz", "vpreset", "source")
    presets = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) != len(cols):
                raise PresetError(f"{path}: {len(fields)} columns, want {len(cols)}: {line}")
            p = dict(zip(cols, fields))
            for k in ("family", "model", "nominal", "lnl", "lowest",
                      "nom_mhz", "low_mhz"):
                p[k] = int(p[k], 0)
            p["highest"] = [int(v, 0) for v in p["highest"].split(",")]
            presets[p["name"]] = p
    return presets


def highest_of(preset, cpu):
    """HighestPerformance of @cpu: the list's entry, the last one repeating."""
    h = preset["highest"]
    return h[min(cpu, len(h) - 1)]


def reg(width, addr):
    """A SystemMemory Generic Register Descriptor of @width bits at @addr."""
    size = {32: 3, 64: 4}[width]
    return (f"ResourceTemplate () {{ Register (SystemMemory, {width}, 0, "
            f"0x{addr:08X}, {size}) }}")


def cpc_package(preset, cpu, base):
    """The 23-entry _CPC package of @cpu, one entry per line with its name."""
    a = base + cpu * CPU_STRIDE
    entries = [
        ("NumEntries", "23"),
        ("Revision", "3"),
        ("HighestPerformance", str(highest_of(preset, cpu))),
        ("NominalPerformance", str(preset["nominal"])),
        ("LowestNonlinearPerformance", str(preset["lnl"])),
        ("LowestPerformance", str(preset["lowest"])),
        ("GuaranteedPerformanceRegister", NULL_REG),
        ("DesiredPerformanceRegister", reg(32, a + 0)),
        ("MinimumPerformanceRegister", reg(32, a + 4)),
        ("MaximumPerformanceRegister", reg(32, a + 8)),
        ("PerformanceReductionToleranceRegister", NULL_REG),
        ("TimeWindowRegister", NULL_REG),
        ("CounterWraparoundTime", "0"),
        ("ReferencePerformanceCounterRegister", reg(64, a + 16)),
        ("DeliveredPerformanceCounterRegister", reg(64, a + 24)),
        ("PerformanceLimitedRegister", reg(32, a + 32)),
        ("CPPCEnableRegister", reg(32, a + 12)),
        ("AutonomousSelectionEnable", "0"),
        ("AutonomousActivityWindowRegister", NULL_REG),
        ("EnergyPerformancePreferenceRegister", NULL_REG),
        # The reference counter counts at the nominal level
        ("ReferencePerformance", str(preset["nominal"])),
        ("LowestFrequency", str(preset["low_mhz"])),
        ("NominalFrequency", str(preset["nom_mhz"])),
    ]
    assert len(entries) == 23
    last = len(entries) - 1
    body = "\n".join(f"                {v}{',' if i < last else ''}  /* {n} */"
                     for i, (n, v) in enumerate(entries))
    return f"            Name (_CPC, Package (0x17)\n            {{\n{body}\n            }})"


def asl(preset, cpus, base):
    """The whole SSDT source for @cpus processors."""
    out = ['DefinitionBlock ("", "SSDT", 2, "SUGOV", "CPPC", 1)', "{"]
    for cpu in range(cpus):
        out.append(f"    External (\\_SB.CPUS.C{cpu:03X}, ProcessorObj)")
    if preset["osc"] == "yes":
        out.append(f"""
    Scope (\\_SB)
    {{
        /* Ack CPPC v2 and the flexible address space, mask the rest */
        Method (_OSC, 4, NotSerialized)
        {{
            CreateDWordField (Arg3, 0, CDW1)
            If ((Arg0 == ToUUID ("{SB_OSC_UUID}")))
            {{
                CreateDWordField (Arg3, 4, CDW2)
                CDW2 &= 0x{OSC_CPPC_BITS:X}
            }}
            Else
            {{
                CDW1 |= 0x04
            }}
            Return (Arg3)
        }}
    }}""")
    for cpu in range(cpus):
        out.append(f"\n    Scope (\\_SB.CPUS.C{cpu:03X})\n    {{")
        out.append(cpc_package(preset, cpu, base))
        out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset")
    ap.add_argument("--cpus", type=int)
    ap.add_argument("--base", type=lambda s: int(s, 0))
    ap.add_argument("--out")
    ap.add_argument("--list", action="store_true", help="print the preset names")
    ap.add_argument("--field", nargs=2, metavar=("PRESET", "COLUMN"),
                    help="print one column of a preset (for tools/vm/run)")
    args = ap.parse_args(argv)
    try:
        presets = load_presets()
    except (OSError, ValueError, PresetError) as e:
        print(f"mkssdt: {e}", file=sys.stderr)
        return 2
    if args.list:
        print(" ".join(presets))
        return 0
    if args.field:
        name, col = args.field
        if name not in presets or col not in presets[name]:
            print(f"mkssdt: no {col} for preset {name}", file=sys.stderr)
            return 2
        v = presets[name][col]
        print(",".join(map(str, v)) if isinstance(v, list) else v)
        return 0
    if not (args.preset and args.cpus and args.base is not None and args.out):
        ap.error("--preset, --cpus, --base and --out are required")
    if args.preset not in presets:
        print(f"mkssdt: unknown CPPC preset {args.preset} (have: {' '.join(presets)})",
              file=sys.stderr)
        return 2
    if not 1 <= args.cpus <= MAX_CPUS:
        print(f"mkssdt: --cpus {args.cpus}: one register page holds 1..{MAX_CPUS}",
              file=sys.stderr)
        return 2
    if args.base % PAGE:
        print(f"mkssdt: --base 0x{args.base:x} is not page aligned", file=sys.stderr)
        return 2
    src = asl(presets[args.preset], args.cpus, args.base)
    stem = os.path.splitext(args.out)[0]
    with open(stem + ".dsl", "w", encoding="utf-8") as f:
        f.write(src)
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["iasl", "-p", os.path.join(tmp, "ssdt"), stem + ".dsl"],
                           capture_output=True, text=True, check=False)
        if r.returncode:
            print(f"mkssdt: iasl failed on {stem}.dsl:\n{r.stdout}{r.stderr}",
                  file=sys.stderr)
            return 1
        os.replace(os.path.join(tmp, "ssdt.aml"), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
