"""Parses the text of a tracefs `hist` file (one or more hist triggers on one event)."""
import re

_TRIGGER = re.compile(r'^# trigger info: (hist:\S+)( \[(paused|active)\])?')
_ENTRY = re.compile(r'^\{ (.*) \}\s+(.*)$')
_PAIR = re.compile(r'(\w+):\s*(\S+)')
_TOTAL = re.compile(r'^\s+(Hits|Entries|Dropped): (\d+)')


def _key_names(spec):
    """'hist:keys=vcpu_id,trap.hex:size=1' -> [('vcpu_id', None), ('trap', 'hex')]"""
    for part in spec.split(':'):
        if part.startswith('keys=') or part.startswith('key='):
            out = []
            for k in part.split('=', 1)[1].split(','):
                name, _, mod = k.partition('.')
                out.append((name, mod or None))
            return out
    raise ValueError('no keys= in trigger info %r' % spec)


def _value(text, mod):
    text = text.rstrip(',')
    if mod == 'hex':
        return int(text, 16)
    try:
        return int(text)
    except ValueError:
        return text


def parse(text):
    """Returns a list of triggers, each {'spec', 'paused', 'keys': [names], 'entries':
    [{'key': {name: value}, 'vals': {name: int}}], 'hits', 'entries_n', 'dropped'}."""
    triggers, cur = [], None
    for line in text.splitlines():
        m = _TRIGGER.match(line)
        if m:
            keys = _key_names(m.group(1))
            cur = {'spec': m.group(1), 'paused': m.group(3) == 'paused',
                   'keys': [k for k, _ in keys], '_mods': dict(keys), 'entries': []}
            triggers.append(cur)
            continue
        if cur is None:
            continue
        m = _ENTRY.match(line)
        if m:
            key = {}
            for part in m.group(1).split(', '):
                name, _, val = part.partition(':')
                name = name.strip()
                if name not in cur['_mods']:
                    raise ValueError('key %r not in %s' % (name, cur['spec']))
                key[name] = _value(val.strip(), cur['_mods'][name])
            vals = {n: int(v) for n, v in _PAIR.findall(m.group(2))}
            if 'hitcount' not in vals:
                raise ValueError('no hitcount in %r' % line)
            cur['entries'].append({'key': key, 'vals': vals})
            continue
        m = _TOTAL.match(line)
        if m:
            cur[{'Hits': 'hits', 'Entries': 'entries_n', 'Dropped': 'dropped'}[m.group(1)]] = \
                int(m.group(2))
    for t in triggers:
        del t['_mods']
        got = sum(e['vals']['hitcount'] for e in t['entries'])
        # An active trigger counts on while its file is printed: its Totals may run ahead.
        if t['paused'] and t.get('dropped', 0) == 0 and t.get('hits', got) != got:
            raise ValueError('%s: entries sum to %d, Totals say %d' % (t['spec'], got, t['hits']))
    return triggers


def find(triggers, keys):
    """The trigger whose key list is exactly `keys`."""
    for t in triggers:
        if t['keys'] == list(keys):
            return t
    raise KeyError('no hist trigger with keys %s' % ','.join(keys))


def counts(trigger, key):
    """{value of `key`: summed hitcount} over the trigger's entries."""
    out = {}
    for e in trigger['entries']:
        v = e['key'][key]
        out[v] = out.get(v, 0) + e['vals']['hitcount']
    return out


def diff(start, end):
    """The counts between two snapshots of the same hist file: per trigger (matched by spec) and
    key, end minus start. Keys that did not move are left out."""
    out = []
    for te in end:
        ts = [t for t in start if t['spec'] == te['spec']]
        if len(ts) != 1:
            raise ValueError('trigger %s is not once in the start snapshot' % te['spec'])
        before = {tuple(sorted(e['key'].items())): e['vals']['hitcount'] for e in ts[0]['entries']}
        entries = []
        for e in te['entries']:
            k = tuple(sorted(e['key'].items()))
            n = e['vals']['hitcount'] - before.pop(k, 0)
            if n < 0:
                raise ValueError('%s: %s went down (%d)' % (te['spec'], dict(k), n))
            if n:
                entries.append({'key': dict(e['key']), 'vals': {'hitcount': n}})
        if before:
            raise ValueError('%s: keys %s vanished' % (te['spec'], list(before)))
        out.append({'spec': te['spec'], 'paused': te['paused'], 'keys': te['keys'],
                    'entries': entries, 'hits': sum(e['vals']['hitcount'] for e in entries),
                    'entries_n': len(entries),
                    'dropped': te.get('dropped', 0) - ts[0].get('dropped', 0)})
    return out
