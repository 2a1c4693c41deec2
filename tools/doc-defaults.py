#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compares the admin guide's :Unit:, :Range: and :Default: fields with the code.

Documentation/admin-guide.rst documents each sugov_inv tunable (its module
parameter of the same name shares it) and each freq_invariance parameter
once, as a definition-list entry with field lines.  This reads those
fields and the values the C sources use:

- the ranges of the sysfs stores (sugov_inv_sysfs.c: rate_limit_us_store(),
  chain_window_us_store() and the SUGOV_INV_STORE_UINT() lines) and of the module parameters
  (sugov_inv_params.c: the SUGOV_INV_PARAM() lines), which must agree;
- the defaults of a new tunables set (sugov_inv_params.c:
  sugov_inv_default_*), the macros resolved in sugov_inv.h;
- the freq_max_policy names (sugov_inv_fmax_names[]) and the reference=
  names (freq_inv_ref_names[]);
- freq_invariance's override bounds (freq_inv_caps.h: FREQ_INV_MAX_KHZ,
  FREQ_INV_MAX_BOOST_RATIO).

It prints one KTAP result per check; the exit status is 1 when one fails.
Usage: tools/doc-defaults.py [TOP]  (TOP: the repository, default: here)
"""

import os
import re
import sys
from typing import Dict, List, Optional, Tuple

TOP = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
DOC = 'Documentation/admin-guide.rst'


def read(path: str) -> str:
    with open(os.path.join(TOP, path), encoding='utf-8') as f:
        return f.read()


def strip_comments(c: str) -> str:
    return re.sub(r'/\*.*?\*/|//[^\n]*', ' ', c, flags=re.S)


def defines(*paths: str) -> Dict[str, str]:
    """#define NAME VALUE of the given files, comments removed."""
    out = {}
    for p in paths:
        for m in re.finditer(r'^#define\s+(\w+)\s+([^\n]+)$',
                             strip_comments(read(p)), re.M):
            out[m.group(1)] = m.group(2).strip()
    return out


def value(expr: str, defs: Dict[str, str]) -> int:
    """An integer constant: a literal (U suffix allowed) or a macro."""
    expr = expr.strip().strip('()')
    seen = 0
    while expr in defs and seen < 8:
        expr = defs[expr].strip().strip('()')
        seen += 1
    m = re.fullmatch(r'(?:\(\w+\))?\s*(\d+)[uUlL]*', expr)
    if not m:
        raise ValueError(f'not an integer constant: {expr}')
    return int(m.group(1))


def names(c: str, array: str) -> List[str]:
    """The strings of a designated-initializer array of names, in order."""
    m = re.search(array + r'\[[^\]]*\]\s*=\s*\{(.*?)\};', c, re.S)
    if not m:
        raise ValueError(f'{array}[] not found')
    return re.findall(r'=\s*"([^"]*)"', m.group(1))


def enum_index(c: str, enum_name: str, member: str) -> int:
    m = re.search(r'enum\s+' + enum_name + r'\s*\{(.*?)\};', c, re.S)
    if not m:
        raise ValueError(f'enum {enum_name} not found')
    members = [x.split('=')[0].strip() for x in
               strip_comments(m.group(1)).split(',') if x.strip()]
    return members.index(member)


def doc_entries(text: str) -> Dict[str, Dict[str, str]]:
    """Each definition-list entry's fields, keyed by its first literal.

    An entry is a line of ``name`` (or ``module`` ``name=``) at column 0
    followed by an indented body; a field is ":Name: text" with its
    continuation lines, joined with single spaces.
    """
    entries: Dict[str, Dict[str, str]] = {}
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = re.match(r'^``(\w[\w-]*)``(?: ``(\w+)=``)?(?:,.*)?$', lines[i])
        if not m or i + 1 >= len(lines) or not lines[i + 1].startswith('    '):
            i += 1
            continue
        key = m.group(2) or m.group(1)
        fields: Dict[str, str] = {}
        cur: Optional[str] = None
        i += 1
        while i < len(lines) and (lines[i] == '' or lines[i].startswith(' ')):
            f = re.match(r'^ {4}:([\w ]+):\s*(.*)$', lines[i])
            if f:
                cur = f.group(1)
                fields[cur] = f.group(2)
            elif cur and lines[i].startswith('      ') and lines[i].strip():
                fields[cur] += ' ' + lines[i].strip()
            elif not lines[i].strip():
                pass
            else:
                cur = None
            i += 1
        if fields and key not in entries:
            entries[key] = fields
    return entries


def numbers(s: str) -> List[int]:
    return [int(x) for x in re.findall(r'(?<![\w.])(\d+)(?![\w.])', s)]


class Ktap:
    def __init__(self) -> None:
        self.results: List[Tuple[bool, str, List[str]]] = []

    def check(self, ok: bool, name: str, *diag: str) -> None:
        self.results.append((ok, name, list(diag) if not ok else []))

    def print(self) -> int:
        print('KTAP version 1')
        print(f'1..{len(self.results)}')
        for n, (ok, name, diag) in enumerate(self.results, 1):
            for d in diag:
                print(f'# {d}')
            print(f'{"ok" if ok else "not ok"} {n} {name}')
        return 0 if all(r[0] for r in self.results) else 1


def main() -> int:
    t = Ktap()
    doc = doc_entries(read(DOC))
    hdr = defines('sugov_inv.h', 'freq_inv_caps.h')
    sysfs = strip_comments(read('sugov_inv_sysfs.c'))
    params = strip_comments(read('sugov_inv_params.c'))
    fparams = strip_comments(read('freq_inv_params.c'))

    # The code's side: tunable -> (min, max) from the stores and the params
    store: Dict[str, Tuple[int, int]] = {}
    for m in re.finditer(r'^SUGOV_INV_STORE_UINT\((\w+),\s*(\w+),\s*(\w+)\)', sysfs, re.M):
        store[m.group(1)] = (value(m.group(2), hdr), value(m.group(3), hdr))
    # Stores of their own, which act on the new value (rate_limit_us_store(),
    # chain_window_us_store()): the range their sugov_inv_store_uint() checks
    for name in ('rate_limit_us', 'chain_window_us'):
        m = re.search(name + r'_store\(.*?sugov_inv_store_uint\([^,]+,[^,]+,[^,]+,'
                      r'\s*(\w+),\s*(\w+),', sysfs, re.S)
        if m:
            store[name] = (value(m.group(1), hdr), value(m.group(2), hdr))
    param: Dict[str, Tuple[int, int]] = {}
    for m in re.finditer(r'^SUGOV_INV_PARAM\((\w+),\s*(\w+),\s*(\w+),\s*([\w -]+?),',
                         params, re.M):
        if m.group(2) == 'NULL':
            param[m.group(1)] = (value(m.group(3), hdr), value(m.group(4), hdr))
    default: Dict[str, str] = {}
    for m in re.finditer(r'static unsigned int sugov_inv_default_(\w+)\s*=\s*(\w+);',
                         params):
        default[m.group(1)] = m.group(2)
    fmax_names = names(sysfs, 'sugov_inv_fmax_names')
    ref_names = names(fparams, 'freq_inv_ref_names')

    # What each default variable sets: the tunable of that name
    var_of = {'rate_limit_us': 'rate_limit_us', 'overutil_threshold_pct': 'threshold_pct',
              'idle_restore_us': 'idle_restore_us', 'freq_max_policy': 'fmax',
              'chain_window_us': 'chain_window_us'}
    units = {'_us': 'microseconds', '_pct': 'percent', '_khz': 'kHz'}

    attrs = re.findall(r'&(\w+)\.attr,', sysfs)
    t.check(sorted(attrs) == sorted(list(store) + ['freq_max_policy']),
            'every sysfs tunable has a range-checked store',
            f'attributes {attrs}, stores {sorted(store)}')
    entries = re.findall(r'^``(\w+)``\n {4}', read(DOC), re.M)
    for tun in attrs:
        t.check(entries.count(tun) == 1, f'{tun}: documented once',
                f'{entries.count(tun)} entries')
    for tun in attrs:
        if tun == 'freq_max_policy':
            continue
        f = doc.get(tun)
        t.check(f is not None, f'{tun}: documented with fields in {DOC}')
        if f is None:
            continue
        t.check(tun in store and param.get(tun) == store[tun],
                f'{tun}: the module parameter takes the sysfs store\'s range',
                f'store {store.get(tun)}, parameter {param.get(tun)}')
        rng = numbers(f.get('Range', ''))
        t.check(tun in store and rng[:2] == list(store[tun]),
                f'{tun}: :Range: is the code\'s',
                f'doc {rng[:2]}, code {store.get(tun)}')
        unit = next(u for s, u in units.items() if tun.endswith(s))
        t.check(f.get('Unit', '').startswith(unit), f'{tun}: :Unit: is {unit}',
                f'doc "{f.get("Unit")}"')
        dv = default.get(var_of[tun], '?')
        dtext = f.get('Default', '')
        if dv == 'UINT_MAX':
            # None given: the driver's transition delay, as schedutil
            ok = 'cpufreq_policy_transition_delay_us()' in dtext and \
                '1.5 times' in dtext and '6.12' in dtext
            t.check(ok, f'{tun}: :Default: is the driver\'s transition delay '
                    '(1.5 x latency on 6.12)', f'doc "{dtext[:100]}"')
        else:
            dn = numbers(dtext)
            t.check(bool(dn) and dn[0] == value(dv, hdr),
                    f'{tun}: :Default: is the code\'s',
                    f'doc {dn[:1]}, code {dv} = {value(dv, hdr)}')

    f = doc.get('freq_max_policy', {})
    t.check(set(re.findall(r'``([\w-]+)``', f.get('Range', ''))) == set(fmax_names),
            'freq_max_policy: :Range: lists every name of sugov_inv_fmax_names[]',
            f'doc "{f.get("Range")}", code {fmax_names}')
    idx = enum_index(read('sugov_inv.h'), 'sugov_inv_fmax', default.get('fmax', '?'))
    t.check(f'``{fmax_names[idx]}``' in f.get('Default', '').split()[:1],
            'freq_max_policy: :Default: is the code\'s',
            f'doc "{f.get("Default")}", code {fmax_names[idx]}')

    f = doc.get('reference', {})
    t.check(set(re.findall(r'``([\w-]+)``', f.get('Range', ''))) == set(ref_names),
            'reference=: :Range: lists every name of freq_inv_ref_names[]',
            f'doc "{f.get("Range")}", code {ref_names}')
    m = re.search(r'static int freq_inv_reference\s*=\s*(\w+);', fparams)
    dref = ref_names[enum_index(read('freq_inv_internal.h') + read('freq_invariance.h'),
                                'freq_inv_reference', m.group(1))] if m else '?'
    t.check(f.get('Default', '').split()[:1] == [f'``{dref}``'],
            'reference=: :Default: is the code\'s',
            f'doc "{f.get("Default")}", code {dref}')

    f = doc.get('max_p_khz', {})
    rng = numbers(f.get('Range', ''))
    max_khz = value('FREQ_INV_MAX_KHZ', hdr)
    ratio = value('FREQ_INV_MAX_BOOST_RATIO', hdr)
    t.check(f.get('Unit', '') == 'kHz', 'max_p_khz=, max_boost_khz=: :Unit: is kHz',
            f'doc "{f.get("Unit")}"')
    t.check(rng[:2] == [1, max_khz] and ratio + 1 in rng[2:],
            'max_p_khz=, max_boost_khz=: :Range: is 1 .. FREQ_INV_MAX_KHZ, '
            'the ratio below FREQ_INV_MAX_BOOST_RATIO + 1',
            f'doc {rng}, code 1 .. {max_khz}, ratio < {ratio + 1}')
    t.check('not set' in f.get('Default', ''), 'max_p_khz=, max_boost_khz=: '
            ':Default: not set', f'doc "{f.get("Default")}"')
    return t.print()


if __name__ == '__main__':
    try:
        sys.exit(main())
    except (OSError, ValueError, AttributeError, IndexError) as e:
        print('KTAP version 1\n1..1')
        print(f'# {type(e).__name__}: {e}')
        print('not ok 1 doc-defaults: the code or the admin guide could not be parsed')
        sys.exit(1)
