#!/usr/bin/env python3
"""Write hostile.csv, the second device of the report's fixture, from
pocl-quick.csv (a real `clbench run all --quick -d pthread` on the 2-core
test VM, 2026-11-25: all 15 workloads, one skipped row, cache-resident rows).

The second device is made up for the tests: its figures are the PoCL ones
scaled by 1.5, and every text a page shows is hostile -- the device name is
an HTML script element, the host and driver hold quotes and markup, one
row's params hold a double quote and an event handler. It also has what the
first lacks: a failed row, energy columns (rapl) with an idle power metric,
an MPI job of two ranks (each rank's row and the aggregate), and the marks
of schema v3's metrics: stream rows timed on the host clock (timer_host, as
on a device whose event timer is not trusted), a roofline row flagged
impossible (an error row that keeps its figures), roofline rows of
op=muladd and copy2d tiles reduced to fit (in params and detail).

    python3 tests/data/report/make_fixtures.py   # rewrites hostile.csv
"""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DEVICE = '<script>alert("device")</script> GPU'
HOST = 'h"ost\'<b>'
DRIVER = '1.0 "><img src=x onerror=alert(1)>'
FIGURES = ['t_min_s', 't_median_s', 't_mean_s', 't_max_s', 't_stddev_s']
RATES = ['gbps', 'gbps_best', 'gflops']


def scaled(row):
    out = dict(row)
    out['device'], out['host'], out['driver'] = DEVICE, HOST, DRIVER
    out['run_id'] = 'hostile-1'
    out['profile'] = ''
    out['pct_peak_bw'] = ''
    for k in RATES:
        if out[k]:
            out[k] = '%.6g' % (float(out[k]) * 1.5)
    for k in FIGURES:
        if out[k]:
            out[k] = '%.9g' % (float(out[k]) / 1.5)
    if out['status'] == 'ok' and out['t_median_s']:
        reps = float(out['reps'] or 1)
        out['energy_j'] = '%.6g' % (float(out['t_median_s']) * reps * 95.0)
        out['avg_power_w'] = '95'
        out['power_source'] = 'rapl'
        out['metrics'] = (out['metrics'] + ';' if out['metrics'] else '') + 'idle_power_w=21.5'
    return out


def add_metrics(row, more):
    return row['metrics'] + ';' + more if row['metrics'] else more


def v3_marks(rows):
    """What clbench writes since schema v3 (host/core/timer.c, measure.c, fit.c)."""
    for r in rows:
        if r['run_id'] != 'hostile-1':
            continue
        if r['workload'] in ('stream', 'peak') and r['dtype'] == 'float':
            r['metrics'] = add_metrics(r, 'timer_host=1;launch_overhead_us=41.5')
            r['detail'] += ('; timer=host (events read 0.001 us for a kernel the host clock '
                            'timed at 5210 us); host clock between two clFinish, launch '
                            'overhead 41.5 us a launch included')
        if r['workload'] == 'roofline' and r['dtype'] == 'float' and 'flops=128' in r['params']:
            r['gflops'] = '987654'
            r['status'] = 'error'
            r['detail'] = ('impossible: 9.877e+05 GFlop/s is above the peak of profile generic '
                           '(100 GFlop/s x 1.50 clock margin): a timer or counting fault, not a '
                           'measurement; ' + r['detail'])
            r['metrics'] = add_metrics(r, 'impossible=1')
        if r['workload'] == 'roofline' and r['dtype'] == 'double':
            r['params'] += ',op=muladd'
        if r['workload'] == 'copy2d' and 'tile=32x8' in r['params']:
            r['params'] = r['params'].replace('tile=32x8', 'tile=16x1')
            r['detail'] = ('tile 32x8 reduced to 16x1: work-groups of 32x8 need 256 work-items; '
                           'the device allows 24; ' + r['detail'])
            r['metrics'] = add_metrics(r, 'reduced=1')


def main():
    with open(os.path.join(HERE, 'pocl-quick.csv'), newline='') as f:
        reader = csv.DictReader(f)
        cols = reader.fieldnames
        rows = [scaled(r) for r in reader]
    # a failed validation
    for r in rows:
        if r['workload'] == 'transpose' and r['kernel'] == 'naive':
            r['status'] = 'failed'
            r['detail'] = '3 of 65536 elements wrong (first at row 7, column 2); <i>not</i> a tag'
            break
    # a double quote and markup in params (a key the workload does not read)
    for r in rows:
        if r['workload'] == 'stream' and r['kernel'] == 'triad' and r['dtype'] == 'float':
            r['params'] += ',note=a"b"><svg onload=alert(2)>'
            break
    # an MPI job: the stream copy float row on two ranks and their aggregate
    base = next(r for r in rows if r['workload'] == 'stream' and r['kernel'] == 'copy' and
                r['dtype'] == 'float')
    job = []
    for rank, f in (('0', 1.0), ('1', 0.96), ('all', 1.96)):
        j = dict(base, ranks='2', rank=rank, run_id='hostile-mpi')
        for k in RATES:
            if j[k]:
                j[k] = '%.6g' % (float(j[k]) * f)
        job.append(j)
    rows += job
    v3_marks(rows)
    with open(os.path.join(HERE, 'hostile.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=cols, lineterminator='\n')
        w.writeheader()
        w.writerows(rows)


if __name__ == '__main__':
    main()
