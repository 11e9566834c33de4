import csv
# Regenerates the fixtures of this directory: python3 make_fixtures.py (run here)
H="run_id,timestamp,host,platform,device,device_type,driver,profile,workload,kernel,dtype,size,params,local_size,global_size,warmup,reps,bytes,flops,t_min_s,t_median_s,t_mean_s,t_max_s,t_stddev_s,gbps,gbps_best,gflops,pct_peak_bw,model,status,detail".split(',')
H2=H+'clbench_version,ranks,rank,energy_j,avg_power_w,power_source'.split(',')
def row(**k):
    r={h:'' for h in H2}; r.update({a:str(b) for a,b in k.items()}); return r
def meas(run,host,plat,dev,dtype_,drv,prof,wl,kern,dt,size,params,byts,gbps,best,flops=0,peak=None,status='ok',detail=''):
    r=row(run_id=run,timestamp='2026-11-20T10:00:00Z',host=host,platform=plat,device=dev,device_type=dtype_,driver=drv,profile=prof,
          workload=wl,kernel=kern,dtype=dt,size=size,params=params,warmup=3,reps=20,bytes=int(byts),flops=int(flops),
          status=status,detail=detail)
    if status=='ok':
        tmed=byts/gbps/1e9; tmin=byts/best/1e9
        r.update(t_min_s='%.6g'%tmin,t_median_s='%.6g'%tmed,t_mean_s='%.6g'%tmed,t_max_s='%.6g'%(tmed*1.01),t_stddev_s='%.3g'%(tmed*0.004),
                 gbps='%.6g'%gbps,gbps_best='%.6g'%best)
        if flops: r['gflops']='%.6g'%(flops/tmed/1e9)
        if peak: r['pct_peak_bw']='%.4g'%(gbps*100/peak)
    return r
def write(name,rows,v=2):
    # schema v2 (37 columns) unless v=1 (the first 31): compare reads both
    with open(name,'w',newline='',encoding='utf-8',errors='surrogateescape') as f:
        w=csv.DictWriter(f,fieldnames=H2 if v==2 else H,lineterminator='\n',extrasaction='ignore')
        w.writeheader(); [w.writerow(r) for r in rows]
G=('gpu1','NVIDIA CUDA','NVIDIA H100 80GB HBM3','gpu','550.54','h100_sxm')
N=268435456
rows=[]
for run,scale in (('r1',1.0),('r2',0.98)):
    for k,nb,fl in (('copy',2,0),('triad',3,2)):
        for dt,sz,base in (('float',4,3000),('double',8,3040)):
            g=base*scale*(1.0 if k=='copy' else 1.01)
            rows.append(meas(run,*G,'stream',k,dt,N,'vec=4' if dt=='float' else 'vec=2',nb*N*sz,g,g*1.01,fl*N,peak=3352))
for k,g in (('naive',610.0),('coalesced',2450.0),('diagonal',2790.0)):
    rows.append(meas('r1',*G,'transpose',k,'float','8192x8192','tile=32',2*8192*8192*4,g,g*1.02,peak=3352))
rows.append(meas('r1',*G,'transpose','naive','double','8192x8192','tile=32',0,0,0,status='failed',detail='max abs error 1 at (3, 7)'))
for rhs,gf,ai in ((1,2510.0,0.80),(2,3900.0,1.25),(3,4800.0,1.53),(4,5600.0,1.73)):
    B=1048*32*32*32*16*rhs
    rows.append(meas('r1',*G,'dslash','dslash','float','32x32x32x16','rhs=%d vec=1'%rhs,B,gf/ai,gf/ai*1.01,flops=B*ai,peak=3352))
write('gpu.csv',rows)
GPU=[dict(r) for r in rows]
rows=[]
for host,f in (('vm',1.0),('ws',2.5)):
    C=(host,'Portable Computing Language','pthread-haswell-AMD EPYC 7B13 64-Core Processor','cpu','3.1+debian','pocl_cpu')
    for k,nb in (('copy',2),('triad',3)):
        for dt,sz,base in (('float',4,14.0),('double',8,13.5)):
            rows.append(meas('c-'+host,*C,'stream',k,dt,N,'vec=8',nb*N*sz,base*f,base*f*1.05,(2*N if k=='triad' else 0)))
    rows.append(meas('c-'+host,*C,'transpose','naive','float','8192x8192','tile=32',2*8192*8192*4,3.1*f,3.3*f))
    rows.append(meas('c-'+host,*C,'transpose','diagonal','float','8192x8192','tile=32',2*8192*8192*4,9.8*f,10.4*f))
rows.append(meas('c-vm','vm','Portable Computing Language','pthread-haswell-AMD EPYC 7B13 64-Core Processor','cpu','3.1+debian','pocl_cpu',
                 'transpose','naive','double','8192x8192','tile=32',0,0,0,status='skipped',detail='no fp64'))
# a failed validation beside a passing run of the same configuration: shown with '!'
rows.append(meas('c-vm2','vm','Portable Computing Language','pthread-haswell-AMD EPYC 7B13 64-Core Processor','cpu','3.1+debian','pocl_cpu',
                 'transpose','diagonal','float','8192x8192','tile=32',0,0,0,status='failed',detail='max abs error 2 at (0, 5)'))
write('cpu.csv',rows,v=1)   # the v1 fixture
ref=[]
def rf(dev,drv,wl,k,dt,size,g,detail):
    return row(run_id='reference',device=dev,device_type='gpu',driver=drv,workload=wl,kernel=k,dtype=dt,
               size=size,gbps=g,status='reference',detail=detail)
for k,g280,k20x in (('copy',96.9,147.6),('naive',2.2,92.0),('coalesced',16.5,114.0),('diagonal',69.5,106.7)):
    ref.append(rf('GeForce GTX 280','','transpose',k,'float','2048x2048',g280,'Matrix transpose whitepaper (2048x2048 float, "GB/s"), table 1'))
    ref.append(rf('Tesla K20X','','transpose',k,'float','2048x2048',k20x,'Matrix transpose whitepaper (2048x2048 float, "GB/s"), table 1'))
for drv,c,t in (('ECC on',150.4,151.7),('ECC off',169.2,172.9)):
    ref.append(rf('Tesla K20c, "Kepler" GK110',drv,'stream','copy','double',N,c,'BabelStream 1.0, OpenCL, double'))
    ref.append(rf('Tesla K20c, "Kepler" GK110',drv,'stream','triad','double',N,t,'BabelStream 1.0, OpenCL, double'))
write('reference.csv',ref)
open('notcsv.csv','w').write('this is a plain text note,\nnot a results file\n')
open('empty.csv','w').write('')
old=H[:]; old[24]='gbps_median'
with open('otherversion.csv','w') as f: f.write(','.join(old)+'\n')
with open('fewcols.csv','w') as f: f.write(','.join(H[:29])+'\n')
bad=[meas('x',*G,'stream','copy','float',N,'vec=4',2*N*4,3000,3030,peak=3352)]
bad[0]['gbps']='fast'
write('nonnumeric.csv',bad,v=1)

# ---- sizes: 2^28, 256M and 268435456 are one size; cache_resident rows ----
D=('sz','Portable Computing Language','Size Test Device','cpu','1.0','')
rows=[meas('s1',*D,'stream','copy','float','2^28','vec=4',2*N*4,10.0,10.5),
      meas('s2',*D,'stream','copy','float','256M','vec=4',2*N*4,11.0,11.5),
      meas('s3',*D,'stream','copy','float',N,'vec=4',2*N*4,12.0,12.5),
      meas('s4',*D,'stream','copy','float','1M','vec=4',2*1048576*4,90.0,95.0,detail='cache_resident (8.4 MB < 4 x 32 MB cache)'),
      meas('s5',*D,'stream','copy','float','2^20','vec=4',2*1048576*4,80.0,85.0,detail='cache_resident (8.4 MB < 4 x 32 MB cache)')]
write('sizes.csv',rows)

# ---- peaks by unit: device work (stream), host work (unit_xfer h2d: a test
# workload that tests/unit/test_compare.c registers), unknown workloads ----
P=('pk','NVIDIA CUDA','Peak Test GPU','gpu','1.0','')
rows=[meas('p1',*P,'stream','copy','float',N,'vec=4',2*N*4,900.0,910.0,peak=1000),
      meas('p1',*P,'unit_xfer','dev','float',N,'',N*4,800.0,810.0,peak=1000),
      meas('p1',*P,'unit_xfer','h2d','float',N,'',N*4,25.0,26.0),
      meas('p1',*P,'unit_xfer','dev2','float',N,'',N*4,700.0,710.0,peak=1000),
      meas('p1',*P,'notregistered','k','float',N,'',N*4,500.0,510.0,peak=1000)]
write('peaks.csv',rows)

# ---- a baseline and a planted regression: the same run with one figure
# lowered by 10 % (stream triad double), and one lowered by 3 % (within 5 %).
# The baseline is another run of the same device (run ids b1, b2): a row of
# the baseline's own run on the new side is refused ----
write('base.csv',[dict(r,run_id='b'+r['run_id'][1:]) for r in GPU])
def scaled(rows,kern,dt,f):
    out=[]
    for r in rows:
        r=dict(r)
        if r['workload']=='stream' and r['kernel']==kern and r['dtype']==dt and r['status']=='ok':
            for k in ('gbps','gbps_best'): r[k]='%.6g'%(float(r[k])*f)
        out.append(r)
    return out
write('regressed.csv',scaled(GPU,'triad','double',0.90))
write('within.csv',scaled(GPU,'copy','float',0.97))

# ---- crafted text: shell and gnuplot syntax, quotes, newlines, escapes,
# '../' and bytes that are not UTF-8 in every text field. Nothing here may
# ever run, name a path, or break a line of output. ----
EV=('evil','Evil Platform `touch PWNED_platform`')
def ev(dev,wl,kern,params,g,status='ok',detail='',size=1048576,peak=None):
    return meas('ev',EV[0],EV[1],dev,'gpu','1.0 $(touch PWNED_driver)','',wl,kern,'float',size,params,
                size*8,g,g*1.01,peak=peak,status=status,detail=detail)
E1='Evil `touch PWNED_dev` $(touch PWNED_dev2) \'q\' "dq" @m #c \\ |pipe'
E2='Evil2\nsecond line\x1b[31m red\x1b[0m\r\t'
E3='Evil3 \u202e rtl \udcff\udcfe'   # U+202E, then the bytes 0xff 0xfe
rows=[ev(E1,'../../x','copy`touch PWNED_kernel`','vec=$(touch PWNED_params)',10.0,peak=100),
      ev(E2,'../../x','line\nbreak','vec=1',20.0),
      ev(E3,'w\udcff\udcfe','k','vec=1',5.0),
      ev(E1,'sw$(id)','k','k`touch PWNED_key`=1,m=1',1.0),
      ev(E1,'sw$(id)','k','k`touch PWNED_key`=2,m=1',2.0),
      ev(E1,'sw$(id)','k','k`touch PWNED_key`=4,m=1',4.0),
      ev(E2,'../../x','copy`touch PWNED_kernel`','vec=$(touch PWNED_params)',0,status='failed',detail='`touch PWNED_detail`\n2 of 8 wrong')]
rows.append(row(run_id='reference',device='Ref `touch PWNED_ref` "dev"',device_type='gpu',driver='ECC `x`',
                workload='../../x',kernel='copy`touch PWNED_kernel`',dtype='float',size=1048576,gbps=7.5,
                status='reference',detail='`touch PWNED_source` paper; table 1'))
write('crafted.csv',rows)

# ---- the old fixed-size plot buffer: ~300 series of a sweep, each title
# long enough that the script's plot line passed 64 KiB and was cut inside a
# quoted title; the device's peak title then fell outside quotes, and gnuplot
# ran its backquotes. Compare must draw it whole, running nothing. ----
LONG='Evil `echo injected > PWNED_inject` device '+'x'*60
rows=[]
for q in range(1,301):
    for p in (1,2):
        rows.append(meas('inj','h','Inject Platform',LONG,'gpu','1.0','','sweep','k','float',1048576,
                         'p=%d,q=%d'%(p,q),8*1048576,100.0+p,101.0+p,peak=1000))
write('inject.csv',rows)

# ---- measured ceilings (pct_measured_peak, rooflines, staircases) ----------
# "Ceil Test GPU" has stream, peak, roofline, dslash, transpose and latency
# rows: bandwidth ceiling 1000 GB/s (stream triad), fp32 20000 and fp64 10000
# GFlop/s (peak fma); "No Ceiling CPU" has dslash, transpose and latency rows
# only: no measured ceiling. Figures are round numbers, set exactly.
def cr(run,dev,host,wl,kern,dt,size,params,byts=0,flops=0,gbps=None,gflops=None,t=None,detail=''):
    r=row(run_id=run,timestamp='2026-11-20T10:00:00Z',host=host,platform='Test Platform',device=dev,
          device_type='gpu',driver='1.0',workload=wl,kernel=kern,dtype=dt,size=size,params=params,
          warmup=1,reps=5,bytes=int(byts),flops=int(flops),status='ok',detail=detail)
    if t is None: t=byts/gbps/1e9 if gbps else flops/gflops/1e9
    r.update(t_min_s='%.6g'%t,t_median_s='%.6g'%t,t_mean_s='%.6g'%t,t_max_s='%.6g'%t,t_stddev_s='0')
    if gbps is not None: r.update(gbps='%.6g'%gbps,gbps_best='%.6g'%gbps)
    if gflops is not None: r['gflops']='%.6g'%gflops
    return r
A=('Ceil Test GPU','a')
B=('No Ceiling CPU','b')
M=1048576
rows=[cr('c1',*A,'stream','copy','float',N,'vec=4',2*N*4,0,900.0),
      cr('c1',*A,'stream','copy','double',N//2,'vec=2',2*N*4,0,950.0),
      cr('c1',*A,'stream','triad','float',N,'vec=4',3*N*4,2*N,1000.0,2000.0/12),
      cr('c1',*A,'peak','fma','float',4096,'vec=4,acc=8,groups=64,local=64',65536,2**30,None,20000.0),
      cr('c1',*A,'peak','fma','double',4096,'vec=4,acc=8,groups=64,local=64',65536,2**30,None,10000.0),
      cr('c1',*A,'peak','mad','int',4096,'vec=4,acc=8,groups=64,local=64',65536,2**30,None,5000.0),
      cr('c1',*A,'roofline','fma','float',M,'flops=0,vec=4,ilp=1',8*M,0,800.0,detail='flop_per_byte=0'),
      cr('c1',*A,'roofline','fma','float',M,'flops=8,vec=4,ilp=1',8*M,8*M,800.0,800.0,detail='flop_per_byte=1'),
      cr('c1',*A,'roofline','fma','float',M,'flops=128,vec=4,ilp=1',8*M,128*M,937.5,15000.0,detail='flop_per_byte=16'),
      cr('c1',*A,'dslash','reg','float','16x16x16x16','rhs=1',1000*M,800*M,1875.0,1500.0),
      cr('c1',*A,'transpose','naive','float','8192x8192','',2*8192*8192*4,0,700.0)]
for dev in (A,B):
    for ws,ns in ((1024,2.0),(4096,2.0),(16384,10.0),(65536,10.0),(262144,100.0),(M,100.0)):
        ns*=1 if dev is A else 3
        rows.append(cr('c2',*dev,'latency','chase','',M,'ws=%d,stride=64'%ws,t=ns*4096e-9,
                       detail='loads=4096 ns_per_load=%g; cycles=%g clock_mhz=1000'%(ns,ns)))
rows+=[cr('c3',*B,'dslash','reg','float','16x16x16x16','rhs=1',1000*M,800*M,62.5,50.0),
       cr('c3',*B,'transpose','naive','float','8192x8192','',2*8192*8192*4,0,20.0)]
write('ceil.csv',rows)
# --ceilings FILE: stream rows of "No Ceiling CPU" only (40 GB/s)
write('ceil_extra.csv',[cr('x1',*B,'stream','copy','float',N,'vec=8',2*N*4,0,40.0)])
# crafted names on the rooflines and staircases: a device name with quotes,
# backquotes, $(), @ and a newline; a latency kernel and params with gnuplot
# syntax; an unknown workload with gnuplot syntax (not on any roofline: the
# registry does not know it)
EC=('Evil "GPU" \'q\' `touch PWNED_cdev` $(touch PWNED_cdev2) @m\nline2 \\n','h')
EK='chase\'; system("touch PWNED_ckernel") #'
rows=[cr('e1',*EC,'stream','triad','float',N,'vec=4',3*N*4,2*N,500.0,500.0/6),
      cr('e1',*EC,'peak','fma','float',4096,'vec=4,acc=8,groups=64,local=64',65536,2**30,None,8000.0),
      cr('e1',*EC,'roofline','fma','float',M,'flops=8,vec=4,ilp=1',8*M,8*M,400.0,400.0),
      cr('e1',*EC,'roofline','fma','float',M,'flops=128,vec=4,ilp=1',8*M,128*M,62.5,7000.0),
      cr('e1',*EC,'w\'); system("touch PWNED_cwl") #`x`','k','float',M,'',8*M,8*M,100.0,100.0)]
for ws,ns in ((1024,2.0),(65536,10.0),(M,100.0)):
    rows.append(cr('e2',*EC,'latency',EK,'',M,'ws=%d,stride=64,z=@x`touch PWNED_cparam`'%ws,t=ns*4096e-9,
                   detail='loads=4096 ns_per_load=%g'%ns))
write('evilceil.csv',rows)
