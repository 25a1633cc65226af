import os; exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'proto.py')).read())
import sys
which = sys.argv[1]
if which=='it':
    dom_of=V['itDomain']; X=mat('it_chunks'); labs=np.array(V['it_chunks']['labels'])
else:
    dom_of={i:d for d,l in V['domains'].items() for i in l}; X=mat('train'); labs=np.array(V['train']['labels'])
names=sorted(set(labs)); y=np.array([names.index(l) for l in labs])
cnt={}; pos=[]
for l in y: c=cnt.get(l,0); cnt[l]=c+1; pos.append(c)
pos=np.array(pos)
K=5; folds=[int(f) for f in sys.argv[2].split(',')]
res={'fitted':[], 'unfitted':[]}
for f in folds:
    oos_cls = (np.arange(len(names))%K)==f
    out = oos_cls[y]
    held = (~out)&(pos%K==f)
    train = (~out)&~held
    ytr = y[train]; u=np.unique(ytr); remap={c:i for i,c in enumerate(u)}; ytr2=np.array([remap[c] for c in ytr])
    for name in ['unfitted','fitted']:
        F = fit(X[train], ytr2) if name=='fitted' else None
        C=embed(X[train],F); Q=embed(X[held|out],F)
        S=Q@C.T; a=S.argmax(1); b=S.max(1)
        isin = held[held|out]; yq=y[held|out]
        ok = ytr[a]==yq
        t=np.quantile(b[~isin],0.85)
        r=dict(open=ok[isin].mean(), right85=(ok[isin]&(b[isin]>t)).mean(), auc=(b[isin][:,None]>b[~isin][None,:]).mean())
        res[name].append(r); print(f,name,{k:round(float(v),3) for k,v in r.items()},flush=True)
for n,l in res.items(): print(n, {k:round(float(np.mean([r[k] for r in l])),3) for k in l[0]})
