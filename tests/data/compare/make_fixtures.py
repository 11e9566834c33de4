import csv
# Regenerates the fixtures of this directory: python3 make_fixtures.py (run here)
H="run_id,timestamp,host,platform,device,device_type,driver,profile,workload,kernel,dtype,size,params,local_size,global_size,warmup,reps,bytes,flops,t_min_s,t_median_s,t_mean_s,t_max_s,t_stddev_s,gbps,gbps_best,gflops,pct_peak_bw,model,status,detail".split(',')
def row(**k):
    r={h:'' for h in H}; r.update({a:str(b) for a,b in k.items()}); return r
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
def write(name,rows):
    with open(name,'w',newline='') as f:
        w=csv.DictWriter(f,fieldnames=H,lineterminator='\n'); w.writeheader(); [w.writerow(r) for r in rows]
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
write('cpu.csv',rows)
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
write('nonnumeric.csv',bad)
