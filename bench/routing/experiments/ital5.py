import os; exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'proto.py')).read())
dom_of = V['itDomain']
X = mat('it_chunks'); labs = V['it_chunks']['labels']; texts=V['it_chunks']['texts']
tree = Tree(labs, dom_of)
Xq = sp.vstack([mat('it_test'), mat('it_oos')]); ql = V['it_test']['labels']+['oos']*len(V['it_oos']['labels'])
def run(F):
    C=embed(X,F); Qv=embed(Xq,F); ta,td=calibrate(tree,C,texts,0.95); s=score(tree, route(tree,C,Qv,ta,td), ql); return (s['right'],s['answered'],s['oos'])
r=np.array([run(fit(X,tree.y,seed=s)) for s in range(1,11)]); print('power1 mean',r.mean(0).round(3),'min',r.min(0).round(3),'max',r.max(0).round(3))
print('exact', np.round(run(fit_exact(X,tree.y)),3))
