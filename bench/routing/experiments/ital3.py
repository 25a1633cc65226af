import os; exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'proto.py')).read())
dom_of = V['itDomain']
X = mat('it_chunks'); labs = V['it_chunks']['labels']; texts=V['it_chunks']['texts']
tree = Tree(labs, dom_of)
Xq = sp.vstack([mat('it_test'), mat('it_oos')]); ql = V['it_test']['labels']+['oos']*len(V['it_oos']['labels'])
for r in [32,64,128,176,191]:
  for sh in [0.2,0.5]:
    F=fit_exact(X,tree.y,shrink=sh,r=r)
    C=embed(X,F); Qv=embed(Xq,F)
    ta,td=calibrate(tree,C,texts,0.95)
    s=score(tree, route(tree,C,Qv,ta,td), ql); o=score(tree, route(tree,C,Qv,-1,td*0-1), ql)
    print(r, sh, ta, td, {k:round(v,3) for k,v in s.items()}, 'open', round(o['right'],3))
