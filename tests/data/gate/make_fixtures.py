# Regenerates the fixtures of the regression gate (clbench compare --baseline):
# python3 make_fixtures.py (run here). Schema v3; the figures are made up.
import csv, json
H = ('run_id,timestamp,host,platform,device,device_type,driver,profile,workload,kernel,dtype,'
     'size,params,local_size,global_size,warmup,reps,bytes,flops,t_min_s,t_median_s,t_mean_s,'
     't_max_s,t_stddev_s,gbps,gbps_best,gflops,pct_peak_bw,model,status,detail,clbench_version,'
     'ranks,rank,energy_j,avg_power_w,power_source,metrics').split(',')
A = ('Gate Test GPU A', 'gpu-a')
B = ('Gate Test GPU B', 'gpu-b')

def row(dev, wl, kern, dt, size, params, nbytes, gbps, spread=0.01, size_from='rule', status='ok',
        run='r1', detail='', flops=0):
    """One row: gbps from the median time; the fastest and the slowest repetition
    `spread` (a fraction) either side of the median. With flops, gflops too."""
    r = {h: '' for h in H}
    r.update(run_id=run, timestamp='2026-11-24T10:00:00Z', host=dev[1], platform='Gate Platform',
             device=dev[0], device_type='gpu', driver='1.0', profile='generic', workload=wl,
             kernel=kern, dtype=dt, size=str(size), params=params, warmup='3', reps='20',
             bytes=str(nbytes), flops=str(flops), status=status, detail=detail, clbench_version='0.2.0',
             ranks='1', rank='0', metrics='size_from=' + size_from)
    if status == 'ok':
        t = nbytes / gbps / 1e9
        r.update(t_min_s='%.9g' % (t / (1 + spread)), t_median_s='%.9g' % t,
                 t_mean_s='%.9g' % t, t_max_s='%.9g' % (t * (1 + spread)),
                 t_stddev_s='%.3g' % (t * spread / 2), gbps='%.9g' % gbps,
                 gbps_best='%.9g' % (gbps * (1 + spread)))
        if flops:
            r['gflops'] = '%.9g' % (flops / t / 1e9)
    return r

N = 268435456
def suite(dev=A, n=N, copy=1000.0, local=128, copy_spread=0.03, drop=None, m=16777216, run='r1'):
    """A device's run: stream (default size), dot (default size), dslash (a given
    size, two right-hand sides: case parameters). The baseline is run 'b1', the
    new runs 'r1' (a row of the baseline's run on the new side is refused)."""
    rows = [row(dev, 'stream', 'copy', 'float', n, 'vec=4,ilp=1,local=%d' % local, 8 * n, copy,
                spread=copy_spread, run=run),
            row(dev, 'stream', 'triad', 'float', n, 'vec=4,ilp=1,local=%d' % local, 12 * n, 1100.0,
                run=run),
            row(dev, 'dot', 'device', 'float', m, 'groups=528', 8 * m, 500.0, run=run),
            row(dev, 'dslash', 'reg', 'float', '16x16x16x16', 'rhs=1,links=full', 40000000, 800.0,
                size_from='given', run=run, flops=40000000),
            row(dev, 'dslash', 'reg', 'float', '16x16x16x16', 'rhs=2,links=full', 60000000, 900.0,
                size_from='given', run=run, flops=60000000)]
    return [r for r in rows if not (drop and drop(r))]

def write(name, rows):
    with open(name, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=H, lineterminator='\n')
        w.writeheader()
        for r in rows:
            w.writerow(r)

def write_jsonl(name, rows):
    num = {'warmup', 'reps', 'bytes', 'flops', 'ranks'} | {h for h in H if h.startswith('t_')} | \
          {'gbps', 'gbps_best', 'gflops', 'pct_peak_bw', 'model', 'energy_j', 'avg_power_w'}
    ints = {'warmup', 'reps', 'bytes', 'flops', 'ranks'}
    with open(name, 'w') as f:
        for r in rows:
            o = {}
            for h in H:
                v = r[h]
                if h == 'metrics':
                    k, _, x = v.partition('=')
                    o[h] = {k: x} if v else None
                elif v == '':
                    o[h] = None
                else:
                    o[h] = (int(v) if h in ints else float(v)) if h in num else v
            f.write(json.dumps(o) + '\n')

write('base.csv', suite(run='b1'))
# an identical run: exit 0
write('identical.csv', suite())
# a profile moved stream's local 128 -> 1024 and copy got 20 % slower: the
# lines are still the same lines (tuning is not identity): exit 1, "tuned: local"
tuned = suite(local=1024, copy=800.0)
write('tuned.csv', tuned)
write_jsonl('tuned.jsonl', tuned)
# dslash rhs=2 did not run: a missing line, exit 1 (0 with --allow-missing)
write('missing.csv', suite(drop=lambda r: r['params'].startswith('rhs=2')))
# dslash rhs=2 was skipped: it lost its figure, as missing
sk = suite()
sk[-1] = row(A, 'dslash', 'reg', 'float', '16x16x16x16', 'rhs=2,links=full', 60000000, 0,
             size_from='given', status='skipped', detail='not enough memory')
write('skipped.csv', sk)
# dslash rhs=2 failed its validation: lost, exit 1 even with --allow-missing
fl = suite()
fl[-1] = row(A, 'dslash', 'reg', 'float', '16x16x16x16', 'rhs=2,links=full', 60000000, 0,
             size_from='given', status='failed', detail='12 of 4096 elements wrong')
write('failed.csv', fl)
# another device, whose default rule chose twice the stream and dot sizes: exit
# 2 without --cross-device; with it, stream and dot match at each device's
# default size and dslash at its given size (B is a little faster)
write('otherdev.csv', suite(dev=B, n=2 * N, copy=1020.0, m=2 * 16777216))
# copy 3 % slower, inside its 6 % spread (fastest and slowest repetition 3 %
# either side of the median on both runs): "noise" with --threshold 2, exit 0;
# --strict: exit 1
write('noise.csv', suite(copy=970.0))
# nothing in common with the baseline: another workload only
write('nothing.csv', [row(A, 'transpose', 'naive', 'float', '8192x8192', 'tile=32x8',
                          2 * 8192 * 8192 * 4, 300.0)])
# rows written before size_from existed (no metrics): their sizes match as given
old = suite(dev=B, n=2 * N, copy=1020.0, m=2 * 16777216)
for r in old:
    r['metrics'] = ''
write('unmarked.csv', old)
# the device allowed only 32 work-items: stream ran reduced (local=32, metric
# reduced), copy even faster: a reduced launch is what ran, never the line of
# one that ran as asked: the two stream lines missing, two new ones, exit 1
red = suite(copy=1100.0)
for r in red[:2]:
    r['params'] = r['params'].replace('local=128', 'local=32')
    r['metrics'] = 'reduced=1;' + r['metrics']
    r['detail'] = 'local 128 reduced to 32: work-groups of 128 need 128 work-items; ' \
                  'CL_KERNEL_WORK_GROUP_SIZE allows 32'
write('reduced.csv', red)
# the same reduced run measured again (another run id): against reduced.csv it passes
write('reduced_again.csv', [dict(r, run_id='r2') for r in red])
# dslash's group (float, 16x16x16x16) stopped in set-up (an OpenCL error: one
# `kernel=*` error row, exit 3): its two lines lost their figure, exit 1 even
# with --allow-missing (before: "missing (allowed)", exit 0)
gf = suite(drop=lambda r: r['workload'] == 'dslash')
gf.append(row(A, 'dslash', '*', 'float', '16x16x16x16', 'links=full', 0, 0, size_from='given',
              status='error', detail='clCreateBuffer: CL_OUT_OF_RESOURCES'))
write('groupfail.csv', gf)
# the new file holds the baseline's own run (the default results file copied
# as the baseline, then appended to) and a new run whose copy is 50 % slower:
# the baseline's rows are refused from the new side, the regression found
write('withbase.csv', suite(run='b1') + suite(copy=500.0, run='r3'))
# times, where lower is better: a launch's latency_us and a load's ns_per_load
# (metrics, their row times the same time); the new run's launch 20 % slower
# (worse: REGRESSED), its loads 20 % faster (better)
def timed(wl, kern, size, params, key, value, scale, run):
    r = row(A, wl, kern, '', size, params, 0, 1.0, run=run)
    t = value * scale * (1e-6 if key == 'latency_us' else 4096e-9)
    r.update(t_min_s='%.9g' % (t / 1.01), t_median_s='%.9g' % t, t_mean_s='%.9g' % t,
             t_max_s='%.9g' % (t * 1.01), t_stddev_s='0', gbps='', gbps_best='', bytes='0')
    r['metrics'] += ';%s=%.9g' % (key, value * scale)
    return r
def times(launch, load, run):
    return [timed('launch', 'dispatch', 1, '', 'latency_us', 7.0, launch, run),
            timed('latency', 'chase', 1048576, 'ws=1048576,stride=64', 'ns_per_load', 20.0, load, run)]
write('times_base.csv', times(1.0, 1.0, 'b1'))
write('times_new.csv', times(1.2, 0.8, 'r1'))
