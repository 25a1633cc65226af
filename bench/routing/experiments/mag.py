import os; exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'proto.py')).read())
import sys
Xall=mat('train'); labs=np.array(V['train']['labels'])
names=sorted(set(labs)); y=np.array([names.index(l) for l in labs])
cnt={}; fold=[]
for l in labs: c=cnt.get(l,0); cnt[l]=c+1; fold.append(c%5)
fold=np.array(fold); tri=np.where(fold!=0)[0]; tei=np.where(fold==0)[0]
Xq=sp.vstack([Xall[tei], mat('oos_train')]); isin=np.r_[np.ones(len(tei),bool),np.zeros(100,bool)]; yq=np.r_[y[tei],-np.ones(100,int)]
A,b=fit(Xall[tri],y[tri])
def emb(X, mode, w=0.5, s=None, p=1.0):
    Xn=normrows(X); Z=Xn@A-b[None,:]; nz=np.linalg.norm(Z,axis=1,keepdims=True)
    B=np.asarray(Xn.todense())
    if mode=='norm': Zs=Z/nz
    else: Zs=(Z/nz)*(nz/s)**p
    return np.hstack([Zs*np.sqrt(1/(1+w)), B*np.sqrt(w/(1+w))])
Zc=normrows(Xall[tri])@A-b[None,:]; s=np.median(np.linalg.norm(Zc,axis=1))
Zq=normrows(Xq)@A-b[None,:]; nq=np.linalg.norm(Zq,axis=1)
print('norms: chunks median',s,'heldout in',np.median(nq[isin]),'oos',np.median(nq[~isin]))
for mode,p in [('norm',1),('mag',1),('mag',0.5),('mag',2)]:
  for w in [0.5]:
    C=emb(Xall[tri],mode,w,s,p); Q=emb(Xq,mode,w,s,p)
    C=normrows(C); Q=normrows(Q)
    S=Q@C.T; a=S.argmax(1); bb=S.max(1); ok=y[tri][a]==yq
    t=np.quantile(bb[~isin],0.85)
    print(mode,p,w,'open',ok[isin].mean().round(4),'right85',(ok[isin]&(bb[isin]>t)).mean().round(4),'auc',(bb[isin][:,None]>bb[~isin][None,:]).mean().round(4),flush=True)
