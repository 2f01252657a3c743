"""
Independent reference implementation of the facts the pytorch rule pack reads from a Kineto trace, written
from the definitions in HTA / the TensorBoard plugin / TraceLens (see the facts' javadoc), not from the Java
reader. PyTorchPackCorpusTest quotes its output for every positive finding; rerun it with

    python3 rule-tests/src/test/python/pytorch_pack_reference.py ../shared/corpus/<trace>

A trace without ProfilerStep#N whose steps the reader infers (e.g. from Optimizer.step) is analysed over the
inferred steps with --window FROM_NS TO_NS (the first step's start, the last step's end).

Times are ns, parsed from the JSON's decimal microseconds without float rounding.
"""
import json, gzip, sys, re, collections, bisect
from decimal import Decimal

def load(p):
    t = json.load(gzip.open(p, 'rt') if p.endswith('.gz') else open(p), parse_float=Decimal)
    return (t, t) if isinstance(t, list) else (t['traceEvents'], t)

def ns(v):
    return int(Decimal(str(v)) * 1000)

def cat(e):
    c = (e.get('cat') or '').lower()
    if not c and e.get('name') == '[memory]': return 'cpu_instant_event'
    return {'operator': 'cpu_op', 'runtime': 'cuda_runtime', 'memcpy': 'gpu_memcpy', 'memset': 'gpu_memset'}.get(c, c)

def analyse(p):
    ev, top = load(p)
    X = [e for e in ev if e.get('ph') == 'X' and 'ts' in e]
    steps = sorted((ns(e['ts']), ns(e['ts']) + ns(e.get('dur', 0))) for e in X
                   if cat(e) in ('cpu_op', 'user_annotation') and re.match(r'^ProfilerStep#\d+$', e.get('name', '')))
    timed = [e for e in ev if e.get('ph') in ('X', 'i', 'I') and 'ts' in e and cat(e) not in ('python_function', 'trace')]
    if WINDOW:
        w0, w1 = WINDOW
    elif steps:
        w0, w1 = steps[0][0], max(s[1] for s in steps)
    else:
        w0 = min(ns(e['ts']) for e in timed); w1 = max(ns(e['ts']) + max(0, ns(e.get('dur', 0))) for e in timed)
        spans = [e for e in ev if cat(e) == 'trace' and e.get('ph') == 'X']
        if spans:
            w0 = min(w0, min(ns(e['ts']) for e in spans)); w1 = max(w1, max(ns(e['ts']) + ns(e.get('dur', 0)) for e in spans))
    rt = {}
    for e in X:
        if cat(e) in ('cuda_runtime', 'cuda_driver'):
            c = (e.get('args') or {}).get('correlation')
            if c: rt[c] = (ns(e['ts']), ns(e.get('dur', 0)))
    gpu = []
    for e in X:
        k = cat(e)
        if k not in ('kernel', 'gpu_memcpy', 'gpu_memset'): continue
        a = e.get('args') or {}
        call = rt.get(a.get('correlation'))
        at = call[0] if call else ns(e['ts'])
        if not (w0 <= at <= w1): continue
        dev = a.get('device', e.get('pid'))
        st = a.get('stream', e.get('tid'))
        if isinstance(st, str): st = int(re.sub(r'\D', '', st) or 0)
        gpu.append(dict(k=k, s=ns(e['ts']), d=max(0, ns(e.get('dur', 0))), dev=int(dev), st=st, call=call, name=e['name'], a=a))
    return dict(ev=ev, top=top, X=X, steps=steps, w=(w0, w1), gpu=gpu, rt=rt)

def idle(r):
    """HTA idle breakdown on each device's stream with the most kernel time."""
    by = collections.defaultdict(list)
    for o in r['gpu']: by[(o['dev'], o['st'])].append(o)
    best = {}
    for (dev, st), ops in by.items():
        kt = sum(o['d'] for o in ops if o['k'] == 'kernel')
        if kt > 0 and (dev not in best or kt > best[dev][0]): best[dev] = (kt, st)
    out = {}
    for dev, (kt, st) in best.items():
        ops = sorted(by[(dev, st)], key=lambda o: o['s'])
        host = kern = other = gaps = lh = 0
        last = ops[0]['s'] + ops[0]['d']
        for o in ops[1:]:
            g = o['s'] - last
            if g > 0:
                gaps += 1
                if o['call'] and o['call'][0] > last:
                    host += g
                    if g < 50000: lh += g
                elif g < 30000: kern += g
                else: other += g
            last = max(last, o['s'] + o['d'])
        span = last - ops[0]['s']
        out[dev] = dict(stream=st, span=span, host=host, kernel=kern, other=other, gaps=gaps, launchHost=lh,
                        idlePct=100 * (host + kern + other) / span if span else 0, launchHostPct=100 * lh / span if span else 0)
    return out

def durations(r, us=10):
    ks = [o for o in r['gpu'] if o['k'] == 'kernel']
    tot = sum(o['d'] for o in ks); sh = [o for o in ks if o['d'] < us * 1000]
    return dict(kernels=len(ks), total=tot, short=len(sh), shortNs=sum(o['d'] for o in sh),
                pct=100 * sum(o['d'] for o in sh) / tot if tot else 0)

def launches(r):
    by = collections.defaultdict(list)
    for o in r['gpu']: by[(o['dev'], o['st'])].append(o)
    n = empty = shorter = 0
    for ops in by.values():
        enter = sorted(o['call'][0] for o in ops if o['call']); leave = sorted(o['s'] for o in ops if o['call'])
        for o in ops:
            if o['k'] != 'kernel' or not o['call']: continue
            n += 1
            q = bisect.bisect_left(enter, o['call'][0]) - bisect.bisect_right(leave, o['call'][0])
            if q <= 0: empty += 1
            if o['d'] < o['call'][1] <= 50000: shorter += 1
    return dict(launches=n, emptyPct=100 * empty / n if n else 0, shorterPct=100 * shorter / n if n else 0)

COMM = re.compile(r'nccl|rccl|multimem_all_reduce', re.I)
def comm(r):
    worst = (0, 0)
    for dev in set(o['dev'] for o in r['gpu']):
        ops = [o for o in r['gpu'] if o['dev'] == dev]
        c = sorted((o['s'], o['s'] + o['d']) for o in ops if o['k'] == 'kernel' and COMM.search(o['name']))
        if not c: continue
        other = sorted((o['s'], o['s'] + o['d']) for o in ops if not (o['k'] == 'kernel' and COMM.search(o['name'])))
        pts = sorted(set([x for iv in c for x in iv] + [x for iv in other for x in iv]))
        busy = exposed = 0
        ci = oi = 0
        for a, b in zip(pts, pts[1:]):
            m = (a + b) / 2
            inc = any(s <= m < e for s, e in c)
            if inc:
                busy += b - a
                if not any(s <= m < e for s, e in other): exposed += b - a
        if exposed > worst[1] or worst[0] == 0: worst = (busy, exposed)
    return dict(busy=worst[0], exposed=worst[1], pct=100 * worst[1] / (r['w'][1] - r['w'][0]))

SYNC_OPS = {'aten::item', 'aten::_local_scalar_dense', 'aten::nonzero', 'aten::is_nonzero', 'aten::equal'}
SYNC_API = ('cudaDeviceSynchronize', 'cudaStreamSynchronize', 'cudaEventSynchronize', 'cuCtxSynchronize', 'cuStreamSynchronize', 'cuEventSynchronize')
def syncs(r):
    w0, w1 = r['w']
    depth = lambda n: {'aten::is_nonzero': 0, 'aten::equal': 0, 'aten::nonzero': 0, 'aten::item': 1, 'aten::_local_scalar_dense': 2}.get(n, 3)
    calls = sorted(((ns(e['ts']), ns(e['ts']) + ns(e.get('dur', 0)), str(e.get('tid')), e['name']) for e in r['X']
                    if ((cat(e) in ('cpu_op', 'user_annotation') and e['name'] in SYNC_OPS) or
                        (cat(e) in ('cuda_runtime', 'cuda_driver') and e['name'].startswith(SYNC_API)))
                    and w0 <= ns(e['ts']) <= w1), key=lambda c: (c[0], -c[1], depth(c[3])))
    kept = []; cur = {}
    for c in calls:
        i = cur.get(c[2])
        if i is not None:
            o = kept[i]
            inside = c[0] >= o[0] and c[1] <= o[1] and (c[0] < o[1] or depth(c[3]) > depth(o[3]))
            if inside or c[0] < o[1]:
                if c[1] > o[1]: kept[i] = (o[0], c[1], o[2], o[3])
                continue
        cur[c[2]] = len(kept); kept.append(c)
    # an op counts only with a synchronising CUDA call or a copy call of its thread inside it (an item of a CPU tensor
    # waits for nothing), when the trace records CUDA runtime calls at all
    rt = [(ns(e['ts']), ns(e['ts']) + ns(e.get('dur', 0)), str(e.get('tid')), e['name']) for e in r['X']
          if cat(e) in ('cuda_runtime', 'cuda_driver')]
    if rt:
        ev = [x for x in rt if x[3].startswith(SYNC_API) or x[3].startswith(('cudaMemcpy', 'cuMemcpy'))]
        kept = [k for k in kept if depth(k[3]) == 3 or any(x[2] == k[2] and k[0] <= x[0] and x[1] <= k[1] for x in ev)]
    busy = sorted((ns(e['ts']), ns(e['ts']) + max(0, ns(e.get('dur', 0)))) for e in r['X'] if cat(e) in ('kernel', 'gpu_memcpy', 'gpu_memset'))
    merged = []
    for s, e in busy:
        if merged and s <= merged[-1][1]: merged[-1][1] = max(merged[-1][1], e)
        else: merged.append([s, e])
    if not merged:
        return dict(points=len(kept), idle=None, steps=len(r['steps']), idlePctOfStep=None, names=collections.Counter(c[3] for c in kept))
    starts = [m[0] for m in merged]
    def busy_in(a, b):
        return sum(max(0, min(e, b) - max(s, a)) for s, e in merged if s < b and e > a)
    idle = 0
    for i, (s, e, _, _) in enumerate(kept):
        j = bisect.bisect_right(starts, e) - 1
        if j >= 0 and merged[j][1] > e: nxt = e
        else: nxt = starts[j + 1] if j + 1 < len(starts) else e
        until = min(nxt, kept[i + 1][0]) if i + 1 < len(kept) else nxt
        if until > s: idle += (until - s) - busy_in(s, until)
    n = len(r['steps'])
    return dict(points=len(kept), idle=idle, steps=n, idlePctOfStep=100 * idle / n / (sum(b - a for a, b in r['steps']) / n) if n else None,
                names=collections.Counter(c[3] for c in kept))

def occupancy(r):
    occ = lambda a: a.get('est. achieved occupancy %', a.get('theoretical occupancy %'))
    ks = [o for o in r['gpu'] if o['k'] == 'kernel' and occ(o['a']) is not None and 'blocks per SM' in o['a'] and not COMM.search(o['name'])]
    t = sum(o['d'] for o in ks)
    if not t: return None
    return dict(kernels=len(ks), ns=t, occ=float(sum(occ(o['a']) * o['d'] for o in ks)) / t,
                eff=100 * float(sum(min(1, o['a']['blocks per SM']) * o['d'] for o in ks)) / t)

def inputs(r):
    dl = sorted(ns(e['ts']) + ns(e.get('dur', 0)) for e in r['X'] if cat(e) in ('cpu_op', 'user_annotation') and
                e['name'].startswith(('enumerate(DataLoader)#', 'enumerate(DataPipe)#')))
    if not dl: return None
    kl = sorted((o['call'][0] if o['call'] else o['s']) for o in r['gpu'] if o['k'] == 'kernel')
    copies = pag = byts = 0
    for o in r['gpu']:
        if o['k'] != 'gpu_memcpy' or 'HtoD' not in o['name']: continue
        at = o['call'][0] if o['call'] else o['s']
        i = bisect.bisect_right(dl, at) - 1
        if i < 0: continue
        if bisect.bisect_left(kl, at) - bisect.bisect_right(kl, dl[i]) > 0: continue
        copies += 1
        if '(Pageable' in o['name']: pag += 1; byts += o['a'].get('bytes', 0)
    return dict(copies=copies, pageable=pag, bytes=byts) if copies else None


def keys(p):
    r = analyse(p); m = {}
    for d, i in idle(r).items():
        for k, v in (('span', i['span']), ('host', i['host']), ('kernel', i['kernel']), ('other', i['other']), ('gaps', i['gaps']), ('launchHost', i['launchHost'])):
            m['idle%d.%s' % (d, k)] = v
    du = durations(r)
    if du['kernels']: m.update({'dur.kernels': du['kernels'], 'dur.total': du['total'], 'dur.short': du['short'], 'dur.shortNs': du['shortNs']})
    la = launches(r)
    if la['launches']:
        m.update({'launch.n': la['launches'], 'launch.empty': round(la['emptyPct'] * la['launches'] / 100), 'launch.shorter': round(la['shorterPct'] * la['launches'] / 100)})
    if any(COMM.search(o['name']) for o in r['gpu']):
        c = comm(r); m.update({'comm.busy': c['busy'], 'comm.exposed': c['exposed']})
    sy = syncs(r)
    if sy['points']: m.update({'sync.points': sy['points'], 'sync.idle': sy['idle']})
    o = occupancy(r)
    if o: m.update({'occ.kernels': o['kernels'], 'occ.ns': o['ns'], 'occ.occ': round(o['occ'], 3), 'occ.eff': round(o['eff'], 3)})
    ip = inputs(r)
    if ip: m.update({'input.copies': ip['copies'], 'input.pageable': ip['pageable'], 'input.bytes': ip['bytes']})
    return m


def peaks(r):
    """Peak Total Allocated / Total Reserved per CUDA device from [memory] events (None when not recorded)."""
    out = {}
    for e in r['ev']:
        if e.get('name') != '[memory]': continue
        a = e.get('args') or {}
        if a.get('Device Type') != 1: continue
        d = out.setdefault(a.get('Device Id'), dict(events=0, allocated=None, reserved=None))
        d['events'] += 1
        if 'Total Allocated' in a: d['allocated'] = max(d['allocated'] or 0, a['Total Allocated'])
        if 'Total Reserved' in a: d['reserved'] = max(d['reserved'] or 0, a['Total Reserved'])
    return out


WINDOW = None

if __name__ == '__main__':
    args = sys.argv[1:]
    if args[:1] == ['--window']:
        WINDOW = (int(args[1]), int(args[2]))
        args = args[3:]
    for p in args:
        print(p)
        for k, v in sorted(keys(p).items()):
            print('  %s = %s' % (k, v))
        r = analyse(p)
        o = occupancy(r)
        if o: print('  occupancy: weighted %.1f%%, SM efficiency %.1f%%' % (o['occ'], o['eff']))
        for d, i in idle(r).items():
            idl = i['host'] + i['kernel'] + i['other']
            print('  idle GPU %s stream %s: %.1f%% of %d ns; host %.1f%%, kernel %.1f%%, other %.1f%%; launch host wait %.1f%%' % (
                d, i['stream'], i['idlePct'], i['span'], 100 * i['host'] / idl if idl else 0, 100 * i['kernel'] / idl if idl else 0,
                100 * i['other'] / idl if idl else 0, i['launchHostPct']))
        if any(COMM.search(o['name']) for o in r['gpu']):
            c = comm(r); print('  communication: exposed %.1f%% of the analysed range' % c['pct'])
        la = launches(r)
        if la['launches']: print('  launches: %.1f%% into an empty queue, %.1f%% shorter than their call' % (la['emptyPct'], la['shorterPct']))
        sy = syncs(r)
        if sy['points'] and sy['idlePctOfStep'] is not None: print('  host syncs: %d in %d steps, GPU idle %.1f%% of the step; %s' % (
            sy['points'], sy['steps'], sy['idlePctOfStep'], dict(sy['names'])))
        for d, m in peaks(r).items(): print('  memory GPU %s: %s' % (d, m))
