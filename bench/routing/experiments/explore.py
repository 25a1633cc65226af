import os; exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'proto.py')).read())
dom_of = {i:d for d,l in V['domains'].items() for i in l}
Xall = mat('train'); labs = np.array(V['train']['labels'])
cnt={}; fold=[]
for l in labs: c=cnt.get(l,0); cnt[l]=c+1; fold.append(c%5)
fold=np.array(fold)
Xo = mat('oos_train')
def split(f):
    tri = np.where(fold!=f)[0]; tei=np.where(fold==f)[0]
    return tri, tei
def curve(tree, C, Qv, labels):
    # global threshold on best sim: right at oos-declined 0.85
    S = Qv@C.T; a = S.argmax(1); b=S.max(1)
    ins = np.array([l!='oos' for l in labels]); yt=np.array([tree.idx.get(l,-2) for l in labels])
    ok = tree.y[a]==yt
    t = np.quantile(b[~ins], 0.85)
    return dict(open=ok[ins].mean().round(4), right85=(ok[ins]&(b[ins]>t)).mean().round(4), kept85=(b[ins]>t).mean().round(4), t=round(float(t),3))
def transform(X, mode, stats):
    if mode=='none': return X
    if mode.startswith('idf'):
        p = float(mode[3:] or 1)
        return normrows(X @ sp.diags(stats['idf']**p))
def stats_of(Xtr):
    N = Xtr.shape[0]; df = np.bincount(Xtr.indices, minlength=D)
    return dict(idf=np.log((N+1)/(df+1))+1)
import itertools
f=int(sys.argv[1]) if len(sys.argv)>1 else 0
tri,tei = split(f)
tree = Tree(list(labs[tri]), dom_of)
Xq = sp.vstack([Xall[tei], Xo]); ql = list(labs[tei])+['oos']*Xo.shape[0]
for mode in sys.argv[2].split(','):
  st = stats_of(Xall[tri])
  Xt = transform(Xall[tri], mode, st); Xqt = transform(Xq, mode, st)
  for shrink in [float(s) for s in sys.argv[3].split(',')]:
    F = fit(Xt, tree.y, shrink=shrink)
    for w in [float(s) for s in sys.argv[4].split(',')]:
        C = embed(Xt, F, w); Qv = embed(Xqt, F, w)
        print(mode, shrink, w, curve(tree, C, Qv, ql), flush=True)
  C = embed(Xt,None); Qv=embed(Xqt,None); print(mode,'unfitted', curve(tree,C,Qv,ql), flush=True)
