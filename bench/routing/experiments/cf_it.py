import os; exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'proto.py')).read())
dom_of = V['itDomain']
X = mat('it_chunks'); labs = V['it_chunks']['labels']; texts=V['it_chunks']['texts']
tree = Tree(labs, dom_of)
Xq = sp.vstack([mat('it_test'), mat('it_oos')]); ql = V['it_test']['labels']+['oos']*len(V['it_oos']['labels'])
keeps=[0.9,0.925,0.95]
for seed in [1,2,3]:
    F=fit(X,tree.y,seed=seed); C=embed(X,F); Qv=embed(Xq,F)
    for keep,(ta,td) in zip(keeps, calibrate_cf(tree,X,texts,keeps,lambda a,b: fit(a,b,seed=seed))):
        s=score(tree, route(tree,C,Qv,ta,td), ql); print(seed, keep, ta, td, {k:round(v,3) for k,v in s.items()})
