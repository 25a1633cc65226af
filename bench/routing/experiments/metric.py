"""Round 7 of issue #43 goal 2: a fitted projection learned discriminatively instead of by the LDA alone.

The fit today is a linear map (USE-lite whole + randomised PCA of the hashed part to 256 → shrunk LDA, 149
dimensions) and cosine to the nearest chunk. Here the LDA's map B is the start of a gradient descent on a
normalised-softmax ("NormFace"/CosFace) loss: each chunk's projected, unit-length vector against one unit
proxy per intent (started at the intent's mean in the LDA space), logits = scale × (cosine − margin on the
intent's own proxy), cross-entropy over the 150 intents, plus ridge × |B − B0|² to stay near the LDA.
L-BFGS on all the training fold's chunks at once; the map is still linear, so the route, the calibration
at load and the fitted vector (base weight W) are the baseline's, unchanged (quality-ideas.py's `base`
rule on the block fit).

Variants: m<scale>_<margin>_<iters>[_r<ridge>] e.g. m16_0.1_100; Adam: a<scale>_<margin>_e<passes>_b<batch>_lr<step>[_s<seed>][_h<hashed dims>][_pm][_w<base weight W>][_c<intent-mean blend>][_r<hidden units of a residual ReLU part>][_o<weight of synthetic outliers: means of two chunks of different intents, pushed to a uniform softmax>][_l<weight of the LDA space's nearest-chunk score beside the refined one's>].

python3 bench/routing/experiments/metric.py cv [maxfolds] [variant,...] [out.json]
(reads train and oos_train only; never val / oos_val)
"""
import importlib.util, json, os, re, sys, time
import numpy as np
from scipy.optimize import minimize

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cascade as C  # noqa: E402
_spec = importlib.util.spec_from_file_location('quality_ideas', os.path.join(HERE, 'quality-ideas.py'))
QI = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(QI)
QG = QI.QG


def metric_map(Zc, y, B0, scale, margin, iters, ridge, log):
    """Refines the LDA map B0 (d × k) on chunks Zc (centred) with labels y; returns B."""
    n, d = Zc.shape; k = B0.shape[1]; ncls = int(y.max()) + 1
    Y = np.zeros((n, ncls)); Y[np.arange(n), y] = 1
    U0 = QG.nrm(Zc @ B0)
    P0 = np.zeros((ncls, k)); np.add.at(P0, y, U0); P0 = QG.nrm(P0).T           # k × C
    nb = d * k

    def f(th):
        B = th[:nb].reshape(d, k); Pm = th[nb:].reshape(k, ncls)
        u = Zc @ B; r = np.linalg.norm(u, axis=1, keepdims=True); z = u / r
        pn = np.linalg.norm(Pm, axis=0, keepdims=True); q = Pm / pn
        L = z @ q
        lg = scale * (L - margin * Y)
        lg -= lg.max(1, keepdims=True)
        e = np.exp(lg); sm = e / e.sum(1, keepdims=True)
        loss = -(np.log(sm[Y > 0] + 1e-30)).mean() + ridge * ((B - B0) ** 2).sum()
        dL = (sm - Y) * (scale / n)
        dz = dL @ q.T; dq = z.T @ dL
        du = (dz - z * (dz * z).sum(1, keepdims=True)) / r
        dB = Zc.T @ du + 2 * ridge * (B - B0)
        dP = (dq - q * (dq * q).sum(0, keepdims=True)) / pn
        return loss, np.concatenate([dB.ravel(), dP.ravel()])
    t = time.time()
    th0 = np.concatenate([B0.ravel(), P0.ravel()])
    l0 = f(th0)[0]
    res = minimize(f, th0, jac=True, method='L-BFGS-B', options={'maxiter': iters})
    log(f'    metric s={scale} m={margin} it={iters} r={ridge}: loss {l0:.3f} → {res.fun:.3f} '
        f'({res.nit} its, {time.time() - t:.1f} s)')
    return res.x[:nb].reshape(d, k)


def metric_map_adam(Zc, y, B0, scale, margin, epochs, batch, lr, log, seed=1, proxies_from_means=False,
                    hidden=0, outlier=0.0):
    """As metric_map, by Adam on minibatches of `batch` chunks for `epochs` passes; lr relative to B0's
    root mean square (the proxies' lr: relative to 1/sqrt(k))."""
    n, d = Zc.shape; k = B0.shape[1]; ncls = int(y.max()) + 1
    U0 = QG.nrm(Zc @ B0)
    P0 = np.zeros((ncls, k)); np.add.at(P0, y, U0); P0 = QG.nrm(P0).T
    if proxies_from_means:               # the library's start: each intent's mean input, projected
        M = np.zeros((ncls, d)); np.add.at(M, y, Zc); M /= np.bincount(y)[:, None]
        P0 = QG.nrm(M @ B0).T
    B = B0.copy(); Pm = P0.copy()
    lrs = [lr * np.sqrt((B0 ** 2).mean()), lr / np.sqrt(k)]
    rng = np.random.default_rng(seed); t = 0; t0 = time.time()
    # A residual non-linear part (hidden > 0): u = x B + relu(x W1) W2, W2 started at 0.
    W1 = rng.standard_normal((d, hidden)) * np.sqrt(2.0 / d) / max(np.sqrt((Zc ** 2).sum(1).mean()) / np.sqrt(d), 1e-12) if hidden else None
    W2 = np.zeros((hidden, k)) if hidden else None
    params = [B, Pm] + ([W1, W2] if hidden else [])
    if hidden: lrs += [lr * np.sqrt((W1 ** 2).mean()), lrs[0]]
    m = [np.zeros_like(p_) for p_ in params]; v = [np.zeros_like(p_) for p_ in params]
    for ep in range(epochs):
        order = rng.permutation(n)
        for s0 in range(0, n, batch):
            idx = order[s0:s0 + batch]; X = Zc[idx]; yy = y[idx]; nb = len(idx)
            u = X @ B
            if hidden: a = X @ W1; h = np.maximum(a, 0); u = u + h @ W2
            r = np.linalg.norm(u, axis=1, keepdims=True); z = u / r
            pn = np.linalg.norm(Pm, axis=0, keepdims=True); q = Pm / pn
            lg = scale * (z @ q); lg[np.arange(nb), yy] -= scale * margin
            lg -= lg.max(1, keepdims=True); e = np.exp(lg); sm = e / e.sum(1, keepdims=True)
            sm[np.arange(nb), yy] -= 1
            dL = sm * (scale / nb)
            dz = dL @ q.T; dq = z.T @ dL
            du = (dz - z * (dz * z).sum(1, keepdims=True)) / r
            g = [X.T @ du, (dq - q * (dq * q).sum(0, keepdims=True)) / pn]
            if outlier and not hidden:
                # Synthetic outliers: the mean of two chunks of different intents (Outlier Exposure with
                # mixed inputs), pushed towards a uniform softmax (no proxy near them).
                j = rng.permutation(nb); keep = yy != yy[j]
                Xo = 0.5 * (X[keep] + X[j][keep]); no = len(Xo)
                if no:
                    uo = Xo @ B; ro = np.linalg.norm(uo, axis=1, keepdims=True); zo = uo / ro
                    lo = scale * (zo @ q); lo -= lo.max(1, keepdims=True); eo = np.exp(lo); so = eo / eo.sum(1, keepdims=True)
                    dLo = (so - 1.0 / q.shape[1]) * (outlier * scale / no)
                    dzo = dLo @ q.T; dqo = zo.T @ dLo
                    duo = (dzo - zo * (dzo * zo).sum(1, keepdims=True)) / ro
                    g[0] = g[0] + Xo.T @ duo
                    g[1] = g[1] + (dqo - q * (dqo * q).sum(0, keepdims=True)) / pn
            if hidden: dh = (du @ W2.T) * (a > 0); g += [X.T @ dh, h.T @ du]
            t += 1
            for i, (par, gi) in enumerate(zip(params, g)):
                m[i] = 0.9 * m[i] + 0.1 * gi; v[i] = 0.999 * v[i] + 0.001 * gi * gi
                par -= lrs[i] * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-12)
    log(f'    adam s={scale} m={margin} ep={epochs} b={batch} lr={lr} hidden={hidden}: {t} steps, {time.time() - t0:.1f} s')
    if hidden: return lambda X: X @ B + np.maximum(X @ W1, 0) @ W2
    return B


class Metric(QI.Ideas):
    def __init__(self, F, log, spec):
        t = time.time()
        ma = re.fullmatch(r'a([\d.]+)_([\d.]+)_e(\d+)_b(\d+)_lr([\d.e-]+)(?:_s(\d+))?(?:_h(\d+))?(_pm)?(?:_w([\d.]+))?(?:_c([\d.]+))?(?:_r(\d+))?(?:_o([\d.]+))?(?:_l([\d.]+))?', spec)
        hashed_dims = int(ma.group(7) or 256) if ma else 256
        base_weight = float(ma.group(9)) if ma and ma.group(9) else None
        centroid_weight = float(ma.group(10)) if ma and ma.group(10) else 0.0
        hidden = int(ma.group(11)) if ma and ma.group(11) else 0
        outlier = float(ma.group(12)) if ma and ma.group(12) else 0.0
        lda_weight = float(ma.group(13)) if ma and ma.group(13) else 0.0
        if ma: spec = 'm1_0_0'
        mt = re.fullmatch(r'(m|l)([\d.]+)_([\d.]+)_(\d+)(?:_r([\d.e-]+))?', spec)
        onlda = mt.group(1) == 'l'; mt = re.fullmatch(r'[ml]([\d.]+)_([\d.]+)_(\d+)(?:_r([\d.e-]+))?', spec)
        scale, margin, iters = float(mt.group(1)), float(mt.group(2)), int(mt.group(3))
        ridge = float(mt.group(4) or 0)
        self.F = F; tree = F.tree; self.tree = tree; self.cost = {}
        self.P = QI.P if base_weight is None else dict(QI.P, w=base_weight)
        y = tree.y
        Zc_in, Zq_in = QI.block_inputs(F, hashed_dims)
        mu = Zc_in.mean(0); Zc_in = Zc_in - mu; Zq_in = Zq_in - mu
        B0 = C.lda_directions(Zc_in, y, self.P['shrink'])[0]
        if onlda:                                  # a k × k map on the LDA's output (cheaper)
            Zc_in = Zc_in @ B0; Zq_in = Zq_in @ B0; B0 = np.eye(B0.shape[1])
        B = metric_map(Zc_in, y, B0, scale, margin, iters, ridge, log) if iters > 0 else B0
        if ma:
            B = metric_map_adam(Zc_in, y, B0, float(ma.group(1)), float(ma.group(2)), int(ma.group(3)),
                                int(ma.group(4)), float(ma.group(5)), log, int(ma.group(6) or 1), bool(ma.group(8)),
                                hidden, outlier)
        if callable(B): Zc, Zq = QG.nrm(B(Zc_in)), QG.nrm(B(Zq_in))
        else: Zc, Zq = QG.nrm(Zc_in @ B), QG.nrm(Zq_in @ B)
        Sq, Ss = QI.fitted_sims(F, Zc, Zq, self.P)
        Ss = Ss.copy(); Ss[F.same] = -np.inf
        self.Sq, self.Ss = Sq, Ss
        self.Iq = QG.intent_scores(tree, Sq, 1); self.Is = QG.intent_scores(tree, Ss, 1)
        if lda_weight:                       # + lambda x the nearest chunk's cosine in the LDA's own space
            Zc0 = QG.nrm(Zc_in @ B0).astype(np.float32); Zq0 = QG.nrm(Zq_in @ B0).astype(np.float32)
            Sq0 = Zq0 @ Zc0.T; Ss0 = Zc0[F.sampled] @ Zc0.T; Ss0[F.same] = -np.inf
            Iq0 = QG.intent_scores(tree, Sq0, 1); Is0 = QG.intent_scores(tree, Ss0, 1)
            self.Iq = ((self.Iq + lda_weight * Iq0) / (1 + lda_weight)).astype(np.float32)
            self.Is = np.where(np.isfinite(self.Is), (self.Is + lda_weight * Is0) / (1 + lda_weight), self.Is).astype(np.float32)
        if centroid_weight:                  # + beta x cosine to the intent's mean (leave-one-out for samples)
            ncls = len(tree.names)
            Csum = np.zeros((ncls, Zc.shape[1])); np.add.at(Csum, y, Zc)
            Cq = Zq @ QG.nrm(Csum).T
            smp = np.asarray(F.sampled); Cs = Zc[smp] @ QG.nrm(Csum).T
            own = y[smp]; loo = QG.nrm(Csum[own] - Zc[smp])
            Cs[np.arange(len(smp)), own] = (Zc[smp] * loo).sum(1)
            self.Iq = (self.Iq + centroid_weight * Cq).astype(np.float32)
            self.Is = np.where(np.isfinite(self.Is), self.Is + centroid_weight * Cs, self.Is).astype(np.float32)
        self.fq = QI.domain_feats(tree, self.Iq); self.fs = QI.domain_feats(tree, self.Is)
        self.cost['fit'] = dict(seconds=time.time() - t)
        self._cf = None; self._unk = None


def main():
    log = lambda s: print(s, flush=True)
    meta = C.meta
    dom_of = {i: d for d, l in meta['domains'].items() for i in l}
    intents_order = [i for d in meta['domains'] for i in meta['domains'][d]]
    pos = {nm: i for i, nm in enumerate(intents_order)}
    train = C.load('train'); oos_train = C.load('oos_train')
    if sys.argv[1] == 'val':             # ONE read of val + oos_val: fit on all of train
        labs = np.array(train['labels'])
        tri = np.argsort([pos[l] for l in labs], kind='stable')
        val = C.load('val'); oos_val = C.load('oos_val')
        dq = C.concat(val, oos_val, ['oos'] * len(oos_val['labels']))
        F = QG.Fold(C.subset(train, tri), dq, dom_of, intents_order, log)
        out = {}
        for nm in ['base'] + sys.argv[2].split(','):
            X = Metric(F, log, 'm1_0_0' if nm == 'base' else nm)
            out[nm] = {str(kp): C.score(F.tree, X.base(kp), dq['labels']) for kp in QI.KEEPS}
            log(nm + ' ' + ' '.join(f"{kp}:{v['right']:.4f}/{v['answered']:.3f}/{v['oos']:.3f}" for kp, v in out[nm].items()))
        json.dump(out, open(os.path.join(HERE, 'metric-val.json'), 'w'), indent=1, default=QI._js)
        return
    assert sys.argv[1] == 'cv'
    labs = np.array(train['labels']); folds = 5
    maxf = int(sys.argv[2]) if len(sys.argv) > 2 else folds
    names = sys.argv[3].split(',') if len(sys.argv) > 3 else ['m16_0_0', 'm16_0.1_100']
    outp = os.path.join(HERE, sys.argv[4] if len(sys.argv) > 4 else 'metric-cv.json')
    cnt = {}; fold = []
    for l in labs: c = cnt.get(l, 0); cnt[l] = c + 1; fold.append(c % folds)
    fold = np.array(fold)
    per_fold = []
    for f in range(maxf):
        tri = np.where(fold != f)[0]; tei = np.where(fold == f)[0]
        tri = tri[np.argsort([pos[l] for l in labs[tri]], kind='stable')]
        log(f'fold {f}:')
        dq = C.concat(C.subset(train, tei), oos_train, ['oos'] * len(oos_train['labels']))
        F = QG.Fold(C.subset(train, tri), dq, dom_of, intents_order, log)
        r = {}
        for nm in ['base'] + names:
            tt = time.time()
            X = Metric(F, log, 'm1_0_0' if nm == 'base' else nm)
            r[nm] = {str(kp): C.score(F.tree, X.base(kp), dq['labels']) for kp in QI.KEEPS}
            v = r[nm]['0.97']
            log(f'  {nm:>16} ({time.time() - tt:5.1f} s) keep 0.97: right {v["right"]:.3f} answered '
                f'{v["answered"]:.3f} declined {v["oos"]:.3f} | @0.90 {QG.right_at(r[nm], 0.90)}')
        per_fold.append(r)
        summ = QG.summarise(per_fold, log)
        json.dump({'folds': folds, 'foldsRun': len(per_fold), 'keeps': QI.KEEPS, 'summary': summ,
                   'perFold': per_fold}, open(outp, 'w'), indent=1, default=QI._js)


if __name__ == '__main__':
    main()
