"""A cascade of two fitted spaces on CLINC150: route every message in the student + hashed fitted
space (UseStudentEmbedder, ~1 ms); only when that decision is uncertain, embed it with USE-lite and
route it in the USE-lite + hashed fitted space.

Uncertain (the gate), from the student space's similarities of the message to each intent (its
nearest chunk per intent):
  margin = best intent's similarity - best other intent's similarity        (escalate if < m)
  gap    = best intent's similarity - max(agent threshold, threshold of that
           intent's domain)                                                 (escalate if |gap| < g)
Escalate when margin < m or |gap| < g.

Re-implements the fit, calibration and routing of proto.py (randomised PCA 512 + shrunk LDA 0.2,
fitted vector [projected/|projected| * sqrt(1/(1+w)), base * sqrt(w/(1+w))], w = 0.25; the base is
[neural * sqrt(2/3), hashed * sqrt(1/3)]; calibrate2 with 128 samples per node; the domain climb),
computing similarities part by part rather than building the 4,757-d fitted vectors.

Vectors: npx tsx bench/routing/experiments/dump-cascade-vectors.ts (→ bench/.cache/cascade-vectors/)

python3 bench/routing/experiments/cascade.py cv [folds]   # gate grid by CV on train (+ oos_train)
python3 bench/routing/experiments/cascade.py val m g      # ONE read of val + oos_val at gate (m, g)
"""
import json, os, sys, time
import numpy as np, scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
VEC = os.path.join(HERE, '..', '..', '.cache', 'cascade-vectors')
W = 0.25
SHRINK = 0.2
KEEP = {'student': 0.95, 'use': 0.965}
M_GRID = [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.10]
G_GRID = [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08]

meta = json.load(open(os.path.join(VEC, 'meta.json')))


def load(name):
    m = meta[name]
    n = m['rows']
    ip = np.fromfile(os.path.join(VEC, f'{name}.hashed.indptr.i32'), np.int32)
    ix = np.fromfile(os.path.join(VEC, f'{name}.hashed.indices.i32'), np.int32)
    va = np.fromfile(os.path.join(VEC, f'{name}.hashed.values.f32'), np.float32)
    H = sp.csr_matrix((va.astype(np.float64), ix, ip), shape=(n, m['hashedDims']))
    hn = np.sqrt(np.asarray(H.multiply(H).sum(1)).ravel()); hn[hn == 0] = 1
    H = sp.diags(1 / hn) @ H
    out = {'H': H.tocsr(), 'labels': m['labels'], 'texts': m['texts']}
    for k in ('student', 'use'):
        X = np.fromfile(os.path.join(VEC, f'{name}.{k}.f32'), np.float32).reshape(n, -1).astype(np.float64)
        nn = np.linalg.norm(X, axis=1, keepdims=True); nn[nn == 0] = 1
        out[k] = X / nn
    return out


def base(d, neural):
    """The 2:1 base as a csr matrix: [neural * sqrt(2/3), hashed * sqrt(1/3)] (unit rows)."""
    return sp.hstack([sp.csr_matrix(d[neural] * np.sqrt(2 / 3)), d['H'] * np.sqrt(1 / 3)]).tocsr()


def fit(X, y, shrink=SHRINK, pca=512, seed=1, power=1):
    """proto.py's fit: randomised PCA (range finder, `power` iterations) + shrunk LDA."""
    n, d = X.shape; k = y.max() + 1
    mu = np.asarray(X.mean(0)).ravel()
    r = min(pca, d, n - 1, max(64, k, (n - k) // 4))
    rng = np.random.default_rng(seed)
    Q = rng.standard_normal((d, r))
    for _ in range(power + 1):
        P = X.T @ (X @ Q) - n * np.outer(mu, mu @ Q)
        Q, _ = np.linalg.qr(P)
    Z = X @ Q - (mu @ Q)[None, :]
    A = Q @ lda_directions(Z, y, shrink)[0]
    return A, mu @ A


def lda_directions(Z, y, shrink, out=None):
    """The shrunk LDA of centred scores Z (rows) labelled y (0..k-1): the directions B (columns, the
    between-class eigenvectors of the whitened within-class scatter, largest first; at most k - 1, or
    `out`) and their eigenvalues."""
    n, r = Z.shape; k = y.max() + 1
    means = np.zeros((k, r)); sizes = np.bincount(y, minlength=k)
    np.add.at(means, y, Z); means /= sizes[:, None]
    Wc = Z - means[y]; Sw = Wc.T @ Wc
    tr = np.trace(Sw)
    Sw = Sw * (1 - shrink) + np.eye(r) * shrink * tr / r
    vals, vecs = np.linalg.eigh(Sw)
    wh = vecs / np.sqrt(np.maximum(vals, max(vals[-1] * 1e-10, 1e-12)))[None, :]
    wm = (means * np.sqrt(sizes / n)[:, None]) @ wh
    bv, bvec = np.linalg.eigh(wm.T @ wm); order = np.argsort(-bv)
    m = min(k - 1, r) if out is None else min(out, k - 1, r)
    return wh @ bvec[:, order[:m]], bv[order[:m]]


class Space:
    """A fitted space over one base: the chunks' projected parts, and similarity to queries."""

    def __init__(self, d_chunks, neural, y):
        self.neural = neural
        X = base(d_chunks, neural)
        self.A, self.b = fit(X, y)
        self.Zc = self.proj(X)
        self.Nc = d_chunks[neural]; self.Hc = d_chunks['H']

    def proj(self, X):
        Z = X @ self.A - self.b[None, :]
        nz = np.linalg.norm(Z, axis=1, keepdims=True); nz[nz == 0] = 1
        return Z / nz

    def sims(self, d, rows=None):
        """Cosine similarity of the fitted vectors of d's rows (all, or `rows`) to every chunk."""
        if rows is not None:
            d = {'H': d['H'][rows], self.neural: d[self.neural][rows]}
        Zq = self.proj(base(d, self.neural))
        S = (Zq @ self.Zc.T) / (1 + W)
        S += (W / (1 + W)) * ((2 / 3) * (d[self.neural] @ self.Nc.T) + (1 / 3) * (d['H'] @ self.Hc.T).toarray())
        return S


class Tree:
    def __init__(self, labels, dom_of, intents_order):
        self.labels = np.array(labels)
        self.names = [i for i in intents_order if i in set(labels)]
        self.idx = {n: i for i, n in enumerate(self.names)}
        self.y = np.array([self.idx[l] for l in labels])
        assert np.all(np.diff(self.y) >= 0), 'chunks must be grouped by intent, in tree order'
        self.doms = list(dict.fromkeys(dom_of[n] for n in self.names))
        self.didx = {d: i for i, d in enumerate(self.doms)}
        self.dom_of_int = np.array([self.didx[dom_of[n]] for n in self.names])
        self.cd = self.dom_of_int[self.y]
        self.istart = np.searchsorted(self.y, np.arange(len(self.names)))
        self.dstart = np.searchsorted(self.dom_of_int, np.arange(len(self.doms)))


def calibrate(tree, space, d_chunks, keep, floor=0.25, per=128):
    """proto.py's calibrate2 (per-node thresholds from 128 evenly sampled chunks' nearest other chunk)."""
    n = len(tree.y)

    def even(idx):
        if len(idx) <= per: return idx
        return idx[np.floor((np.arange(per) + 0.5) * len(idx) / per).astype(int)]
    nodes = [(even(np.arange(n)), np.ones(n, bool))] + \
        [(even(np.where(tree.cd == d)[0]), tree.cd == d) for d in range(len(tree.doms))]
    sampled = np.unique(np.concatenate([p for p, _ in nodes]))
    tx = np.array(d_chunks['texts'])
    S = space.sims(d_chunks, sampled)
    S[tx[sampled][:, None] == tx[None, :]] = -np.inf
    row = {p: i for i, p in enumerate(sampled)}

    def q(pos, m):
        vals = np.sort(S[[row[p] for p in pos]][:, m].max(1))
        dropped = min(len(vals) - 1, max(0, int(np.floor((1 - keep) * len(vals)))))
        return max(floor, np.floor((vals[dropped] - 1e-4) * 1000) / 1000)
    return q(*nodes[0]), np.array([q(*nd) for nd in nodes[1:]])


def route(tree, S, ta, td):
    """The climb: domains by their nearest chunk; below the agent's threshold → declined; at or above
    the domain's → its nearest intent; else the next domain. Returns (pred, per-intent best sims)."""
    I = np.maximum.reduceat(S, tree.istart, axis=1)           # nearest chunk per intent
    Dbest = np.maximum.reduceat(I, tree.dstart, axis=1)        # per domain
    n = S.shape[0]
    pred = np.full(n, -1); open_ = np.ones(n, bool)
    order = np.argsort(-Dbest, axis=1)
    for k in range(order.shape[1]):
        d = order[:, k]; b = Dbest[np.arange(n), d]
        stop = open_ & (b < ta); open_ &= ~stop
        ans = open_ & (b >= td[d])
        for i in np.where(ans)[0]:
            a, z = tree.dstart[d[i]], (tree.dstart[d[i] + 1] if d[i] + 1 < len(tree.dstart) else I.shape[1])
            pred[i] = a + int(np.argmax(I[i, a:z]))
        open_ &= ~ans
    return pred, I


def gate_features(tree, I, ta, td):
    top = np.argmax(I, 1)
    s = np.sort(I, 1)
    margin = s[:, -1] - s[:, -2]
    gap = s[:, -1] - np.maximum(ta, td[tree.dom_of_int[top]])
    return margin, gap


def score(tree, pred, labels):
    labels = np.array(labels)
    ins = labels != 'oos'
    yt = np.array([tree.idx.get(l, -2) for l in labels])
    return dict(right=float((pred[ins] == yt[ins]).mean()), answered=float((pred[ins] >= 0).mean()),
                oos=float((pred[~ins] < 0).mean()))


def setup(d_chunks, dom_of, intents_order, log):
    tree = Tree(d_chunks['labels'], dom_of, intents_order)
    spaces, thr = {}, {}
    for k in ('student', 'use'):
        t = time.time(); spaces[k] = Space(d_chunks, k, tree.y); tf = time.time() - t
        t = time.time(); thr[k] = calibrate(tree, spaces[k], d_chunks, KEEP[k]); tc = time.time() - t
        log(f'  {k}+hashed: fit {tf:.1f} s, calibration {tc:.1f} s, agent threshold {thr[k][0]:.3f}, '
            f'domains {np.round(thr[k][1], 3).tolist()}')
    return tree, spaces, thr


def evaluate(tree, spaces, thr, dq, labels, grid):
    Ss = spaces['student'].sims(dq)
    ps, Is = route(tree, Ss, *thr['student'])
    del Ss
    Su = spaces['use'].sims(dq)
    pu, _ = route(tree, Su, *thr['use'])
    del Su
    margin, gap = gate_features(tree, Is, *thr['student'])
    res = {'student': dict(score(tree, ps, labels), escalated=0.0),
           'use': dict(score(tree, pu, labels), escalated=1.0)}
    for m, g in grid:
        esc = (margin < m) | (np.abs(gap) < g)
        res[(m, g)] = dict(score(tree, np.where(esc, pu, ps), labels), escalated=float(esc.mean()))
    return res


def subset(d, rows):
    return {'H': d['H'][rows], 'student': d['student'][rows], 'use': d['use'][rows],
            'labels': [d['labels'][i] for i in rows], 'texts': [d['texts'][i] for i in rows]}


def concat(a, b, labels_b=None):
    return {'H': sp.vstack([a['H'], b['H']]).tocsr(), 'student': np.vstack([a['student'], b['student']]),
            'use': np.vstack([a['use'], b['use']]),
            'labels': a['labels'] + (labels_b or b['labels']), 'texts': a['texts'] + b['texts']}


def choose(mean, base_use):
    """The rule, fixed before the runs: the gate with the smallest escalated share whose CV in-scope
    right and OOS declined are both within 0.005 of USE-lite + hashed alone; if none, the best
    (right + declined) / 2 among gates escalating at most 25%."""
    gates = [k for k in mean if isinstance(k, tuple)]
    ok = [k for k in gates if mean[k]['right'] >= base_use['right'] - 0.005 and mean[k]['oos'] >= base_use['oos'] - 0.005]
    if ok: return min(ok, key=lambda k: (mean[k]['escalated'], -mean[k]['right'])), 'within 0.005 of USE+hashed'
    cheap = [k for k in gates if mean[k]['escalated'] <= 0.25]
    return max(cheap, key=lambda k: mean[k]['right'] + mean[k]['oos']), 'fallback: best mean of right and declined at <= 25% escalated'


def main():
    mode = sys.argv[1]
    log = lambda s: print(s, flush=True)
    dom_of = {i: d for d, l in meta['domains'].items() for i in l}
    intents_order = [i for d in meta['domains'] for i in meta['domains'][d]]
    t0 = time.time()
    train = load('train'); oos_train = load('oos_train')
    log(f'loaded in {time.time() - t0:.1f} s')
    labs = np.array(train['labels'])
    # Tree order: domain by domain, intent by intent, chunks in train order (clincTree).
    pos = {n: i for i, n in enumerate(intents_order)}
    grid = [(m, g) for m in M_GRID for g in G_GRID if (m, g) != (0.0, 0.0)]
    if mode == 'cv':
        folds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
        maxf = int(sys.argv[3]) if len(sys.argv) > 3 else folds
        cnt = {}; fold = []
        for l in labs: c = cnt.get(l, 0); cnt[l] = c + 1; fold.append(c % folds)
        fold = np.array(fold)
        per_fold = []
        for f in range(maxf):
            t = time.time()
            tri = np.where(fold != f)[0]; tei = np.where(fold == f)[0]
            tri = tri[np.argsort([pos[l] for l in labs[tri]], kind='stable')]
            log(f'fold {f}:')
            tree, spaces, thr = setup(subset(train, tri), dom_of, intents_order, log)
            dq = concat(subset(train, tei), oos_train, ['oos'] * len(oos_train['labels']))
            r = evaluate(tree, spaces, thr, dq, dq['labels'], grid)
            per_fold.append(r)
            for k in ('student', 'use'):
                log(f'  {k}+hashed alone: ' + ' '.join(f'{a} {v:.3f}' for a, v in r[k].items()))
            log(f'  fold {f} took {time.time() - t:.1f} s')
        mean = {k: {a: float(np.mean([r[k][a] for r in per_fold])) for a in per_fold[0][k]} for k in per_fold[0]}
        log(f'\n{maxf} of {folds} folds, means (right = in-scope right, answered = in-scope answered, oos = OOS declined):')
        for k in ['student', 'use'] + grid:
            v = mean[k]
            log(f'{str(k):>14}: right {v["right"]:.3f} answered {v["answered"]:.3f} oos {v["oos"]:.3f} escalated {v["escalated"]:.3f}')
        chosen, why = choose(mean, mean['use'])
        log(f'chosen gate (m, g) = {chosen} ({why}): {mean[chosen]}')
        # Paired with USE-lite + hashed alone, fold by fold (the same held-out messages).
        log('chosen minus USE+hashed per fold: right ' + str([round(r[chosen]['right'] - r['use']['right'], 3) for r in per_fold])
            + ' oos ' + str([round(r[chosen]['oos'] - r['use']['oos'], 3) for r in per_fold]))
        # The selection's optimism: each fold scored with the gate the rule picks on the other folds.
        nested = []
        for f in range(maxf):
            others = [r for i, r in enumerate(per_fold) if i != f]
            mo = {k: {a: float(np.mean([r[k][a] for r in others])) for a in others[0][k]} for k in others[0]}
            c, _ = choose(mo, mo['use'])
            nested.append(dict(per_fold[f][c], gate=list(c)))
            log(f'  fold {f} with the gate chosen on the other folds {c}: ' + ' '.join(f'{a} {v:.3f}' for a, v in per_fold[f][c].items()))
        nm = {a: float(np.mean([r[a] for r in nested])) for a in ('right', 'answered', 'oos', 'escalated')}
        log(f'chosen on the other folds, mean: {nm}')
        out = {'folds': folds, 'foldsRun': maxf, 'nested': nested, 'nestedMean': nm,
               'mean': {str(k): v for k, v in mean.items()},
               'perFold': [{str(k): v for k, v in r.items()} for r in per_fold],
               'chosen': list(chosen), 'rule': why}
        json.dump(out, open(os.path.join(HERE, 'cascade-cv.json'), 'w'), indent=1)
    elif mode == 'val':
        m, g = float(sys.argv[2]), float(sys.argv[3])
        tri = np.arange(len(labs)); tri = tri[np.argsort([pos[l] for l in labs], kind='stable')]
        tree, spaces, thr = setup(subset(train, tri), dom_of, intents_order, log)
        val = load('val'); oos_val = load('oos_val')
        dq = concat(val, oos_val, ['oos'] * len(oos_val['labels']))
        r = evaluate(tree, spaces, thr, dq, dq['labels'], [(m, g)])
        for k, v in r.items(): log(f'{str(k):>14}: ' + ' '.join(f'{a} {x:.3f}' for a, x in v.items()))
        json.dump({str(k): v for k, v in r.items()}, open(os.path.join(HERE, 'cascade-val.json'), 'w'), indent=1)
    log(f'total {time.time() - t0:.1f} s')


if __name__ == '__main__':
    main()
