"""Quality grid for the USE-lite + hashed fitted space on CLINC150 (k-fold CV on train, oos_train as
out-of-scope): which change to the fit raises in-scope right at >= 0.90 OOS declined?

Re-implements cascade.py's fit (randomised PCA, shrunk LDA), fitted vector (base weight W), the
calibration at load (128 evenly sampled chunks per node, their nearest other chunk, the keep quantile,
floor 0.25, rounded down to 0.001) and the climb, but block-wise (the USE part dense, the hashed part
sparse) so one fold's variants share the base similarities, the PCA and the LDA where they can.
Every variant is calibrated the same way on its own score, on the training folds only.

Variants (one change each from the baseline: 2:1 mix, randomised PCA 512 power 1 seed 1, shrinkage
0.2, LDA k-1 dims, W 0.25, max score):
  shrink (LDA shrinkage), mix (USE:hashed weights; 'use' = USE alone), out (LDA output dims),
  pca / exact (PCA dims; exact = eigenvectors of the covariance), topk (intent score = mean of its top-k
  chunk similarities; calibration: the sampled chunk's own copy excluded), cent (each intent's
  normalised mean fitted vector added as a chunk; calibration: leave-one-out centroid for the sampled
  chunk's intent), w (base weight), usec (USE vectors centred on the training mean, renormalised,
  before the concatenation).

python3 bench/routing/experiments/quality-grid.py cv 5 [maxfolds] [variant,...]   # → quality-grid-cv.json
python3 bench/routing/experiments/quality-grid.py val variant[,variant...]        # ONE read of val + oos_val
"""
import json, os, sys, time
import numpy as np, scipy.sparse as sp, scipy.linalg as sla

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cascade as C  # noqa: E402  (load, Tree, subset, concat, meta)

HERE = os.path.dirname(os.path.abspath(__file__))
KEEPS = [0.95, 0.955, 0.96, 0.965, 0.97, 0.975, 0.98, 0.985]
# Samples per node in the calibration (128 today: the keep then acts in steps of one dropped sample,
# 0.955 and 0.96 both drop 5). QG_PER=512 with the finer QG_KEEPS grid tests a finer calibration.
PER = int(os.environ.get('QG_PER', '128'))
if os.environ.get('QG_KEEPS'): KEEPS = [float(x) for x in os.environ['QG_KEEPS'].split(',')]
BASE = dict(mix=(2, 1), pca=512, exact=False, shrink=0.2, out=None, w=0.25, topk=1, cent=False, usec=False)

VARIANTS = {'base': {}}
for s in (0.05, 0.1, 0.35, 0.5): VARIANTS[f'shrink{s}'] = dict(shrink=s)
for m in ((1, 1), (3, 1), (4, 1)): VARIANTS[f'mix{m[0]}:{m[1]}'] = dict(mix=m)
VARIANTS['mixUSEonly'] = dict(mix=(1, 0))
for o in (64, 100): VARIANTS[f'out{o}'] = dict(out=o)
for p in (256, 768, 1024, 1536, 2048): VARIANTS[f'pca{p}'] = dict(pca=p)
for p in (256, 512, 768, 1024): VARIANTS[f'exact{p}'] = dict(pca=p, exact=True)
for k in (2, 3, 5): VARIANTS[f'top{k}'] = dict(topk=k)
VARIANTS['cent'] = dict(cent=True)
for w in (0.0, 0.1, 0.35, 0.5, 0.75, 1.0): VARIANTS[f'w{w}'] = dict(w=w)
VARIANTS['usec'] = dict(usec=True)


def params(name):
    p = dict(BASE)
    for part in name.split('+'):
        p.update(VARIANTS[part])
    return p


def nrm(X):
    n = np.linalg.norm(X, axis=1, keepdims=True); n[n == 0] = 1
    return X / n


class Fold:
    """One training set (chunks grouped by intent in tree order) and one query set."""

    def __init__(self, tr, q, dom_of, intents_order, log):
        t = time.time()
        self.tree = tree = C.Tree(tr['labels'], dom_of, intents_order)
        self.tr, self.q = tr, q
        self.n = n = len(tree.y)
        per = PER

        def even(idx):
            if len(idx) <= per: return idx
            return idx[np.floor((np.arange(per) + 0.5) * len(idx) / per).astype(int)]
        self.nodes = [even(np.arange(n))] + [even(np.where(tree.cd == d)[0]) for d in range(len(tree.doms))]
        self.sampled = np.unique(np.concatenate(self.nodes))
        self.row = {p: i for i, p in enumerate(self.sampled)}
        tx = np.array(tr['texts'])
        self.same = tx[self.sampled][:, None] == tx[None, :]          # excluded in calibration
        self.Hd = tr['H'].toarray().astype(np.float32)                 # chunks' hashed part, dense
        self.Sh_q = np.asarray(q['H'].astype(np.float32) @ self.Hd.T)
        self.Sh_s = self.Hd[self.sampled] @ self.Hd.T
        self.Su = {}
        self.pcas = {}; self.ldas = {}
        # Blocks of X^T X for the exact PCA (computed on demand).
        self._gram = None; self._eig = {}
        log(f'  fold setup {time.time() - t:.1f} s')

    def use(self, usec):
        """USE parts (chunks, queries), optionally centred on the training chunks' mean; + their sims."""
        if usec not in self.Su:
            Uc, Uq = self.tr['use'], self.q['use']
            if usec:
                mu = Uc.mean(0); Uc = nrm(Uc - mu); Uq = nrm(Uq - mu)
            Uc32 = Uc.astype(np.float32)
            self.Su[usec] = (Uc, Uq, Uq.astype(np.float32) @ Uc32.T, Uc32[self.sampled] @ Uc32.T)
        return self.Su[usec]

    def pca(self, p):
        key = (p['mix'], p['pca'], p['exact'], p['usec'])
        if key in self.pcas: return self.pcas[key]
        Uc = self.use(p['usec'])[0]; H = self.tr['H']
        a, b = p['mix']; sa, sb = np.sqrt(a / (a + b)), np.sqrt(b / (a + b))
        n = self.n; k = self.tree.y.max() + 1
        du = Uc.shape[1]; d = du + (H.shape[1] if sb > 0 else 0)
        mu = np.concatenate([sa * Uc.mean(0), sb * np.asarray(H.mean(0)).ravel()])[:d]
        r = min(p['pca'], d, n - 1, max(64, k, (n - k) // 4))

        def XQ(Q):
            out = sa * (Uc @ Q[:du])
            if sb > 0: out += sb * (H @ Q[du:])
            return out

        def XtM(M):
            top = sa * (Uc.T @ M)
            return np.vstack([top, sb * np.asarray(H.T @ M)]) if sb > 0 else top
        if p['exact']:
            if sb > 0:
                if self._gram is None:
                    self._gram = (Uc.T @ Uc, np.asarray((H.T @ Uc).T), (H.T @ H).toarray())
                UU, UH, HH = self._gram
                G = np.block([[sa * sa * UU, sa * sb * UH], [sa * sb * UH.T, sb * sb * HH]])
            else:
                G = sa * sa * (Uc.T @ Uc)
            G -= n * np.outer(mu, mu)
            ekey = (p['mix'], p['usec'])          # one eigendecomposition (1024 vectors) serves all r
            if ekey not in self._eig:
                rr = min(1024, d)
                self._eig[ekey] = sla.eigh(G, subset_by_index=[d - rr, d - 1], driver='evr')[1][:, ::-1]
            Q = self._eig[ekey][:, :r]
        else:
            rng = np.random.default_rng(1)
            Q = rng.standard_normal((d, r))
            for _ in range(2):
                P = XtM(XQ(Q)) - n * np.outer(mu, mu @ Q)
                Q, _ = np.linalg.qr(P)
        Z = XQ(Q) - (mu @ Q)[None, :]
        self.pcas[key] = (Q, mu, Z, sa, sb, du)
        return self.pcas[key]

    def lda(self, p):
        key = (p['mix'], p['pca'], p['exact'], p['usec'], p['shrink'], p['out'])
        if key in self.ldas: return self.ldas[key]
        Q, mu, Z, sa, sb, du = self.pca(p)
        B = C.lda_directions(Z, self.tree.y, p['shrink'], p['out'])[0]
        Zc = nrm(Z @ B)                      # (X - mu) Q B = X A - mu A
        Uc, Uq = self.use(p['usec'])[:2]
        A = Q @ B
        Zq = sa * (Uq @ A[:du])
        if sb > 0: Zq += sb * np.asarray(self.q['H'] @ A[du:])
        Zq = nrm(Zq - (mu @ A)[None, :])
        Zc32 = Zc.astype(np.float32)
        self.ldas[key] = (Zc, Zq, Zq.astype(np.float32) @ Zc32.T, Zc32[self.sampled] @ Zc32.T)
        return self.ldas[key]

    def sims(self, p):
        """(queries x chunks, sampled chunks x chunks) similarities of the fitted vectors."""
        Zc, Zq, Sp_q, Sp_s = self.lda(p)
        _, _, Su_q, Su_s = self.use(p['usec'])
        a, b = p['mix']; wa, wb = a / (a + b), b / (a + b); w = p['w']
        Sq = Sp_q * np.float32(1 / (1 + w)) + np.float32(w / (1 + w)) * (np.float32(wa) * Su_q + np.float32(wb) * self.Sh_q)
        Ss = Sp_s * np.float32(1 / (1 + w)) + np.float32(w / (1 + w)) * (np.float32(wa) * Su_s + np.float32(wb) * self.Sh_s)
        return Sq, Ss

    def centroid_sims(self, p):
        """Sims of queries and sampled chunks to each intent's normalised mean fitted vector (the
        sampled chunk's own intent: the mean without it)."""
        Zc, Zq = self.lda(p)[:2]
        Uc, Uq = self.use(p['usec'])[:2]
        H, Hq = self.tr['H'], self.q['H']
        a, b = p['mix']; wa, wb = a / (a + b), b / (a + b); w = p['w']
        cp, cb = 1 / np.sqrt(1 + w), np.sqrt(w / (1 + w))
        tree = self.tree; y = tree.y; k = len(tree.names); sizes = np.bincount(y, minlength=k)
        # Fitted vectors as blocks: [Zc*cp, Uc*sqrt(wa)*cb, Hd*sqrt(wb)*cb]
        blocks_c = [Zc * cp, Uc * np.sqrt(wa) * cb, self.Hd.astype(np.float64) * np.sqrt(wb) * cb]
        sums = [np.zeros((k, X.shape[1])) for X in blocks_c]
        for S_, X in zip(sums, blocks_c): np.add.at(S_, y, X)
        cn = np.sqrt(sum((S_ ** 2).sum(1) for S_ in sums))       # |sum| per intent
        blocks_q = [Zq * cp, Uq * np.sqrt(wa) * cb, Hq.toarray() * np.sqrt(wb) * cb]
        Cq = sum(Xq @ S_.T for Xq, S_ in zip(blocks_q, sums)) / cn[None, :]
        s = self.sampled
        Cs = sum(X[s] @ S_.T for X, S_ in zip(blocks_c, sums)) / cn[None, :]
        # Leave-one-out for the own intent: (sum - v)·v / |sum - v|  (v is unit)
        own = y[s]
        dot = sum((X[s] * S_[own]).sum(1) for X, S_ in zip(blocks_c, sums))
        loo_norm = np.sqrt(np.maximum(cn[own] ** 2 - 2 * dot + 1, 1e-12))
        Cs[np.arange(len(s)), own] = (dot - 1) / loo_norm
        return Cq.astype(np.float32), Cs.astype(np.float32)


def intent_scores(tree, S, topk):
    """Per-intent score: nearest chunk (topk 1) or the mean of the top-k chunk similarities."""
    if topk == 1:
        return np.maximum.reduceat(S, tree.istart, axis=1)
    out = np.empty((S.shape[0], len(tree.istart)), np.float32)
    ends = list(tree.istart[1:]) + [S.shape[1]]
    for i, (a, z) in enumerate(zip(tree.istart, ends)):
        blk = S[:, a:z]
        kk = min(topk, z - a)
        top = np.partition(blk, z - a - kk, axis=1)[:, z - a - kk:]
        out[:, i] = top.mean(1)   # -inf (the sampled chunk itself) only if an intent has <= k chunks
    return out


def route(tree, I, ta, td):
    """The climb on per-intent scores I (vectorised cascade.route)."""
    Dbest = np.maximum.reduceat(I, tree.dstart, axis=1)
    nd = Dbest.shape[1]; n = I.shape[0]
    ends = list(tree.dstart[1:]) + [I.shape[1]]
    Darg = np.stack([a + np.argmax(I[:, a:z], 1) for a, z in zip(tree.dstart, ends)], 1)
    pred = np.full(n, -1); open_ = np.ones(n, bool)
    order = np.argsort(-Dbest, axis=1); ar = np.arange(n)
    for k in range(nd):
        d = order[:, k]; b = Dbest[ar, d]
        stop = open_ & (b < ta); open_ &= ~stop
        ans = open_ & (b >= td[d])
        pred[ans] = Darg[ar, d][ans]
        open_ &= ~ans
    return pred


def thresholds(fold, Is, keep, floor=0.25):
    tree = fold.tree
    Dbest_s = np.maximum.reduceat(Is, tree.dstart, axis=1)
    Abest_s = Dbest_s.max(1)

    def q(pos, vals_all):
        vals = np.sort(vals_all[[fold.row[x] for x in pos]])
        dropped = min(len(vals) - 1, max(0, int(np.floor((1 - keep) * len(vals)))))
        return max(floor, np.floor((vals[dropped] - 1e-4) * 1000) / 1000)
    ta = q(fold.nodes[0], Abest_s)
    # a domain node's samples are chunks of that domain; their nearest chunk in the domain
    td = np.array([q(fold.nodes[1 + d], Dbest_s[:, d]) for d in range(len(tree.doms))])
    return ta, td


def evaluate(fold, name, labels):
    p = params(name)
    Sq, Ss = fold.sims(p)
    Ss = Ss.copy(); Ss[fold.same] = -np.inf
    tree = fold.tree
    Iq = intent_scores(tree, Sq, p['topk']); Is = intent_scores(tree, Ss, p['topk'])
    if p['cent']:
        Cq, Cs = fold.centroid_sims(p)
        Iq = np.maximum(Iq, Cq); Is = np.maximum(Is, Cs)
    res = {}
    for keep in KEEPS:
        ta, td = thresholds(fold, Is, keep)
        pred = route(tree, Iq, ta, td)
        res[str(keep)] = C.score(tree, pred, labels)
    return res


def pick(rows):
    """The rule: among keeps whose declined >= 0.90, the most in-scope right; else the most declined."""
    ok = [k for k in rows if rows[k]['oos'] >= 0.90 - 1e-9]
    if ok: return max(ok, key=lambda k: (rows[k]['right'], rows[k]['oos']))
    return max(rows, key=lambda k: (rows[k]['oos'], rows[k]['right']))


def right_at(mean, target):
    """In-scope right at exactly `target` mean declined, interpolated linearly between the two keeps
    that bracket it on the mean curve (a comparison free of the keep grid's coarse steps)."""
    pts = sorted((v['oos'], v['right']) for v in mean.values())
    for (o1, r1), (o2, r2) in zip(pts, pts[1:]):
        if o1 <= target <= o2:
            return max(r1, r2) if o2 == o1 else r2 + (r1 - r2) * (o2 - target) / (o2 - o1)
    return None


def summarise(per_fold, log):
    names = list(per_fold[0].keys())
    summ = {}
    for nm in names:
        mean = {kp: {a: float(np.mean([r[nm][kp][a] for r in per_fold])) for a in ('right', 'answered', 'oos')}
                for kp in per_fold[0][nm]}
        kp = pick(mean)
        spread = {a: [round(r[nm][kp][a], 3) for r in per_fold] for a in ('right', 'oos')}
        summ[nm] = dict(keep=float(kp), mean=mean, atPick=mean[kp], perFoldAtPick=spread,
                        rightAt090=right_at(mean, 0.90))
    log(f'\n{len(per_fold)} folds; at the keep the rule picks (mean declined >= 0.90, most right); '
        'neighbours: right/declined at the keeps either side')
    for nm in names:
        s = summ[nm]; kp = str(s['keep']); ks = list(s['mean'].keys()); i = ks.index(kp)
        nb = ' '.join(f'{k}:{s["mean"][k]["right"]:.3f}/{s["mean"][k]["oos"]:.3f}' for k in ks[max(0, i - 1):i + 2])
        v = s['atPick']
        log(f'{nm:>26} keep {kp:<6} right {v["right"]:.3f} answered {v["answered"]:.3f} declined {v["oos"]:.3f} '
            f'| @0.90 {s["rightAt090"] if s["rightAt090"] is None else round(s["rightAt090"], 3)} '
            f'| right per fold {s["perFoldAtPick"]["right"]} declined per fold {s["perFoldAtPick"]["oos"]} | {nb}')
    if 'base' in summ:
        log('\npaired with base, fold by fold (each at the keep the rule picks on the mean): right diff, declined diff')
        kb = str(summ['base']['keep'])
        for nm in names:
            kp = str(summ[nm]['keep'])
            dr = [r[nm][kp]['right'] - r['base'][kb]['right'] for r in per_fold]
            do = [r[nm][kp]['oos'] - r['base'][kb]['oos'] for r in per_fold]
            summ[nm]['pairedVsBase'] = dict(right=dr, oos=do)
            log(f'{nm:>26} right {np.mean(dr):+.3f} {[round(x, 3) for x in dr]}  declined {np.mean(do):+.3f} {[round(x, 2) for x in do]}')
    return summ


def main():
    mode = sys.argv[1]
    log = lambda s: print(s, flush=True)
    meta = C.meta
    dom_of = {i: d for d, l in meta['domains'].items() for i in l}
    intents_order = [i for d in meta['domains'] for i in meta['domains'][d]]
    pos = {n: i for i, n in enumerate(intents_order)}
    t0 = time.time()
    if mode != 'summary': train = C.load('train'); oos_train = C.load('oos_train')
    else: train = {'labels': []}
    labs = np.array(train['labels'])
    if mode == 'cv':
        folds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
        maxf = int(sys.argv[3]) if len(sys.argv) > 3 else folds
        names = sys.argv[4].split(',') if len(sys.argv) > 4 else list(VARIANTS)
        outp = os.path.join(HERE, sys.argv[5] if len(sys.argv) > 5 else 'quality-grid-cv.json')
        cnt = {}; fold = []
        for l in labs: c = cnt.get(l, 0); cnt[l] = c + 1; fold.append(c % folds)
        fold = np.array(fold)
        per_fold = []; times = {}
        for f in range(maxf):
            t = time.time()
            tri = np.where(fold != f)[0]; tei = np.where(fold == f)[0]
            tri = tri[np.argsort([pos[l] for l in labs[tri]], kind='stable')]
            log(f'fold {f}:')
            dq = C.concat(C.subset(train, tei), oos_train, ['oos'] * len(oos_train['labels']))
            F = Fold(C.subset(train, tri), dq, dom_of, intents_order, log)
            r = {}
            for nm in names:
                tt = time.time()
                r[nm] = evaluate(F, nm, dq['labels'])
                times.setdefault(nm, []).append(time.time() - tt)
                v = r[nm]['0.965']
                log(f'  {nm:>14} ({time.time() - tt:5.1f} s) keep 0.965: right {v["right"]:.3f} answered {v["answered"]:.3f} declined {v["oos"]:.3f}')
            per_fold.append(r)
            log(f'  fold {f} took {time.time() - t:.1f} s')
            del F
            summ = summarise(per_fold, log)
            json.dump({'folds': folds, 'foldsRun': len(per_fold), 'keeps': KEEPS, 'base': BASE,
                       'variants': {nm: params(nm) for nm in names}, 'summary': summ,
                       'perFold': per_fold, 'secondsPerFold': {k: float(np.mean(v)) for k, v in times.items()}},
                      open(outp, 'w'), indent=1, default=str)
    elif mode == 'summary':       # re-summarise a cv json (e.g. with the interpolated column)
        d = json.load(open(os.path.join(HERE, sys.argv[2])))
        d['summary'] = summarise(d['perFold'], log)
        json.dump(d, open(os.path.join(HERE, sys.argv[2]), 'w'), indent=1, default=str)
    elif mode == 'val':
        names = sys.argv[2].split(',')
        tri = np.arange(len(labs)); tri = tri[np.argsort([pos[l] for l in labs], kind='stable')]
        val = C.load('val'); oos_val = C.load('oos_val')
        dq = C.concat(val, oos_val, ['oos'] * len(oos_val['labels']))
        F = Fold(C.subset(train, tri), dq, dom_of, intents_order, log)
        out = {}
        for nm in names:
            out[nm] = evaluate(F, nm, dq['labels'])
            for kp, v in out[nm].items():
                log(f'{nm:>26} keep {kp:<6} right {v["right"]:.3f} answered {v["answered"]:.3f} declined {v["oos"]:.3f}')
        json.dump(out, open(os.path.join(HERE, 'quality-grid-val.json'), 'w'), indent=1)
    log(f'total {time.time() - t0:.1f} s')


if __name__ == '__main__':
    main()
