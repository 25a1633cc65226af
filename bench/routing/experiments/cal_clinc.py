import os; exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'proto.py')).read())
import sys
dom_of={i:d for d,l in V['domains'].items() for i in l}
dorder=list(V['domains'])
Xall=mat('train'); labs=np.array(V['train']['labels']); texts=np.array(V['train']['texts'])
mode=sys.argv[1]
if mode=='cv':
    cnt={}; fold=[]
    for l in labs: c=cnt.get(l,0); cnt[l]=c+1; fold.append(c%5)
    fold=np.array(fold); tri=np.where(fold!=0)[0]; tei=np.where(fold==0)[0]
    Xq=sp.vstack([Xall[tei], mat('oos_train')]); ql=list(labs[tei])+['oos']*100
else:
    tri=np.arange(len(labs)); Xq=sp.vstack([mat('val'),mat('oos_val')]); ql=V['val']['labels']+['oos']*100
intents_order=[i for d in dorder for i in V['domains'][d]]
tri=tri[np.argsort([intents_order.index(l) for l in labs[tri]], kind='stable')]
tree=Tree(list(labs[tri]),dom_of)
F=fit(Xall[tri],tree.y); C=embed(Xall[tri],F); Qv=embed(Xq,F)
keeps=[0.9,0.925,0.95,0.975,0.99]
for per in [128,1024]:
  for ao in [False,True]:
    for keep,(ta,td) in zip(keeps, calibrate2(tree,C,list(texts[tri]),keeps,per=per,agent_only=ao)):
      s=score(tree,route(tree,C,Qv,ta,td),ql); print(per,'agent-only' if ao else 'per-node',keep,ta,td.round(3),{k:round(v,3) for k,v in s.items()},flush=True)
