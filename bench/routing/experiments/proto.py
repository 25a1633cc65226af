import json, numpy as np, scipy.sparse as sp, time, sys
D = 4096
import os
V = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'vectors.json')))
def mat(name):
    rows = V[name]['rows']
    indptr=[0]; ind=[]; val=[]
    for i,v in rows: ind+=i; val+=v; indptr.append(len(ind))
    return sp.csr_matrix((np.array(val,np.float64),np.array(ind),np.array(indptr)),shape=(len(rows),D))
def normrows(X):
    if sp.issparse(X):
        n = np.sqrt(np.asarray(X.multiply(X).sum(1)).ravel()); n[n==0]=1
        return sp.diags(1/n) @ X
    n = np.linalg.norm(X,axis=1,keepdims=True); n[n==0]=1; return X/n

def fit(X, y, shrink=0.2, pca=512, seed=1, power=1):
    # X csr unit rows, y int labels
    n,d = X.shape; k = y.max()+1
    mu = np.asarray(X.mean(0)).ravel()
    r = min(pca, d, n-1, max(64,k,(n-k)//4))
    rng = np.random.default_rng(seed)
    Q = rng.standard_normal((d,r))
    for it in range(power+1):
        # centred scatter times Q: X^T (X Q) - n mu (mu^T Q)
        P = X.T @ (X @ Q) - n*np.outer(mu, mu@Q)
        Q,_ = np.linalg.qr(P)
    Z = X @ Q - (mu@Q)[None,:]
    means = np.zeros((k,r)); sizes=np.bincount(y,minlength=k)
    np.add.at(means, y, Z); means /= sizes[:,None]
    W = Z - means[y]; Sw = W.T@W
    tr = np.trace(Sw)
    Sw = Sw*(1-shrink) + np.eye(r)*shrink*tr/r
    vals, vecs = np.linalg.eigh(Sw)
    wh = vecs/np.sqrt(np.maximum(vals, max(vals[-1]*1e-10,1e-12)))[None,:]
    wm = (means*np.sqrt(sizes/n)[:,None]) @ wh
    Sb = wm.T@wm
    bv, bvec = np.linalg.eigh(Sb); order=np.argsort(-bv)
    out = min(k-1, r)
    A = Q @ (wh @ bvec[:, order[:out]])
    return A, mu@A

def embed(X, fitres, w=0.5):
    Xn = normrows(X)
    if fitres is None: return np.asarray(Xn.todense()) if sp.issparse(Xn) else Xn
    A,b = fitres
    Z = normrows(Xn@A - b[None,:])
    if w==0: return Z
    B = np.asarray(Xn.todense())
    return np.hstack([Z*np.sqrt(1/(1+w)), B*np.sqrt(w/(1+w))])

class Tree:
    def __init__(self, intents, dom_of):  # intents: label per chunk (str); dom_of: intent->domain
        self.labels = np.array(intents)
        self.names = sorted(set(intents)); self.idx={n:i for i,n in enumerate(self.names)}
        self.y = np.array([self.idx[l] for l in intents])
        self.doms = sorted(set(dom_of[n] for n in self.names)); self.didx={d:i for i,d in enumerate(self.doms)}
        self.dom_of_int = np.array([self.didx[dom_of[n]] for n in self.names])
        self.cd = self.dom_of_int[self.y]

def calibrate(tree, C, texts, keep, floor=0.25, per=128, minchunks=12):
    # returns t_agent, t_dom array ; chunks order: grouped? sample evenly over node's chunks in tree order
    S = C@C.T
    tx = np.array(texts)
    same = tx[:,None]==tx[None,:]
    S = np.where(same, -np.inf, S)
    def q(pos, mask):
        vals = np.sort(S[np.ix_(pos, np.where(mask)[0])].max(1))
        dropped = min(len(vals)-1, max(0, int(np.floor((1-keep)*len(vals)))))
        return max(floor, np.floor((vals[dropped]-1e-4)*1000)/1000)
    def even(idx):
        if len(idx)<=per: return idx
        return idx[np.floor((np.arange(per)+0.5)*len(idx)/per).astype(int)]
    allidx = np.arange(len(tree.y))
    ta = q(even(allidx), np.ones(len(tree.y),bool))
    td = np.array([q(even(np.where(tree.cd==d)[0]), tree.cd==d) for d in range(len(tree.doms))])
    return ta, td

def route(tree, C, Qv, ta, td):
    S = Qv@C.T
    nd = len(tree.doms)
    best = np.full((S.shape[0], nd), -np.inf); arg = np.zeros((S.shape[0],nd),int)
    for d in range(nd):
        m = np.where(tree.cd==d)[0]
        a = S[:,m].argmax(1); best[:,d]=S[np.arange(len(a)),m[a]]; arg[:,d]=m[a]
    pred = np.full(S.shape[0], -1)
    for i in range(S.shape[0]):
        for d in np.argsort(-best[i]):
            if best[i,d] < ta: break
            if best[i,d] >= td[d]: pred[i]=tree.y[arg[i,d]]; break
    return pred

def score(tree, pred, labels):
    ins = np.array([l not in ('none','oos') for l in labels])
    yt = np.array([tree.idx.get(l,-2) for l in labels])
    return dict(right=float((pred[ins]==yt[ins]).mean()), answered=float((pred[ins]>=0).mean()), oos=float((pred[~ins]<0).mean()))

def fit_exact(X, y, shrink=0.2, r=None):
    n,d=X.shape; k=y.max()+1
    mu=np.asarray(X.mean(0)).ravel()
    Xc=np.asarray(X.todense())-mu[None,:]
    U,s,Vt=np.linalg.svd(Xc, full_matrices=False)
    r = r or max(64,k,(n-k)//4); r=min(r, (s>1e-8*s[0]).sum())
    Q=Vt[:r].T
    Z=Xc@Q
    means=np.zeros((k,r)); sizes=np.bincount(y,minlength=k); np.add.at(means,y,Z); means/=sizes[:,None]
    W=Z-means[y]; Sw=W.T@W; tr=np.trace(Sw)
    Sw=Sw*(1-shrink)+np.eye(r)*shrink*tr/r
    vals,vecs=np.linalg.eigh(Sw); wh=vecs/np.sqrt(np.maximum(vals,max(vals[-1]*1e-10,1e-12)))[None,:]
    wm=(means*np.sqrt(sizes/n)[:,None])@wh; bv,bvec=np.linalg.eigh(wm.T@wm); o=np.argsort(-bv)
    A=Q@(wh@bvec[:,o[:min(k-1,r)]]); return A, mu@A

def calibrate_cf(tree, X, texts, keeps, fitfn, w=0.5, floor=0.25, per=128, minchunks=12, share=0.2):
    # X: base csr in tree order; cross-fitted: sampled positions held out of the fit
    n=X.shape[0]
    def even(idx):
        if len(idx)<=per: return idx
        return idx[np.floor((np.arange(per)+0.5)*len(idx)/per).astype(int)]
    nodes=[('agent', np.arange(n), np.ones(n,bool))]+[(d, even(np.where(tree.cd==d)[0]), tree.cd==d) for d in range(len(tree.doms))]
    nodes[0]=('agent', even(np.arange(n)), nodes[0][2])
    sampled=np.unique(np.concatenate([p for _,p,_ in nodes]))
    k=max(1,int(np.ceil(len(sampled)/max(1,np.floor(share*n)))))
    foldof={p:i%k for i,p in enumerate(sampled)}
    tx=np.array(texts); best={}
    for f in range(k):
        held=np.array([p for p in sampled if foldof[p]==f]); mask=np.ones(n,bool); mask[held]=False
        ytr=tree.y[mask]; u,inv=np.unique(ytr,return_inverse=True)
        F=fitfn(X[mask], inv)
        C=embed(X,F,w)
        S=C[held]@C.T
        S[tx[held][:,None]==tx[None,:]]=-np.inf
        for i,p in enumerate(held): best[p]=S[i]
    out=[]
    for keep in keeps:
        def q(pos, m):
            vals=np.sort([best[p][m].max() for p in pos])
            dropped=min(len(vals)-1,max(0,int(np.floor((1-keep)*len(vals)))))
            return max(floor, np.floor((vals[dropped]-1e-4)*1000)/1000)
        ta=q(nodes[0][1], nodes[0][2]); td=np.array([q(p,m) for _,p,m in nodes[1:]])
        out.append((ta,td))
    return out

def calibrate2(tree, C, texts, keeps, floor=0.25, per=128, agent_only=False):
    n=len(tree.y)
    def even(idx):
        if len(idx)<=per: return idx
        return idx[np.floor((np.arange(per)+0.5)*len(idx)/per).astype(int)]
    nodes=[(even(np.arange(n)), np.ones(n,bool))]+[(even(np.where(tree.cd==d)[0]), tree.cd==d) for d in range(len(tree.doms))]
    sampled=np.unique(np.concatenate([p for p,_ in nodes]))
    tx=np.array(texts)
    S=C[sampled]@C.T; S[tx[sampled][:,None]==tx[None,:]]=-np.inf
    row={p:i for i,p in enumerate(sampled)}
    res=[]
    for keep in keeps:
        def q(pos,m):
            vals=np.sort(S[[row[p] for p in pos]][:,m].max(1))
            dropped=min(len(vals)-1,max(0,int(np.floor((1-keep)*len(vals)))))
            return max(floor,np.floor((vals[dropped]-1e-4)*1000)/1000)
        ta=q(*nodes[0]); td=np.array([q(*nd) for nd in nodes[1:]])
        if agent_only: td=td*0-1
        res.append((ta,td))
    return res
