"""Issue #43 goal 2, round 5: a hub penalty (CSLS-like) on the fitted space, by quality-ideas.py's 5-fold
CV on CLINC150 train (oos_train as out-of-scope; val never read). Out-of-scope messages that route land
mostly on a few generic chunks (fun_fact's): chunks near many chunks of *other* intents. Each chunk c
gets r_c, the mean similarity of its K nearest chunks of other intents (fitted space, base weight W, as
routed), and a message's score for c becomes S(q, c) - beta (r_c - mean r): computable at fit time, a
per-chunk offset at routing. The calibration's samples get the same offsets (thresholds adapt).

Variants: hub<beta>k<K> (rule: the baseline climb); res<a>: every similarity of a message lowered by
a x the z-score of its residual (the squared norm outside the discriminant subspace in the shrunk,
whitened input space: the class-independent part of its Mahalanobis distance to every class mean),
the calibration's sampled chunks by their own; baseline block256 (the fit as shipped).

python3 bench/routing/experiments/hubness.py [maxfolds] [variant,...] [out.json]
"""
import json, os, re, sys, time
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import importlib.util  # noqa: E402
import cascade as C  # noqa: E402
_spec = importlib.util.spec_from_file_location('quality_ideas', os.path.join(HERE, 'quality-ideas.py'))
QI = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(QI)
QG = QI.QG


def hub_offsets(F, Zc, P, K):
    """r_c: mean of the K largest similarities of chunk c to chunks of other intents (as routed)."""
    Uc = F.use(False)[0].astype(np.float32)
    a, b = P['mix']; wa, wb = a / (a + b), b / (a + b); w = P['w']
    y = F.tree.y; n = len(y)
    Z32 = Zc.astype(np.float32)
    r = np.empty(n, np.float32)
    for s in range(0, n, 2000):
        e = min(n, s + 2000)
        S = (Z32[s:e] @ Z32.T) * np.float32(1 / (1 + w)) + np.float32(w / (1 + w)) * (
            np.float32(wa) * (Uc[s:e] @ Uc.T) + np.float32(wb) * (F.Hd[s:e] @ F.Hd.T))
        S[y[s:e][:, None] == y[None, :]] = -np.inf
        top = np.partition(S, n - K, axis=1)[:, n - K:]
        r[s:e] = top.mean(1)
    return r


class Hub(QI.Ideas):
    def __init__(self, F, log):
        super().__init__(F, log, 'block256')
        Zc_in, Zq_in = QI.block_inputs(F, 256, 1)
        self.Zc, _ = QI.lda_full(Zc_in, F.tree.y, Zq_in, self.P['shrink'])
        self.Sq0, self.Ss0 = self.Sq, self.Ss
        self.r = {}

    def hub(self, keep, beta, K):
        if K not in self.r:
            self.r[K] = hub_offsets(self.F, self.Zc, self.P, K)
        off = np.float32(beta) * (self.r[K] - self.r[K].mean())
        tree = self.tree
        Iq = QG.intent_scores(tree, self.Sq0 - off[None, :], 1); Is = QG.intent_scores(tree, self.Ss0 - off[None, :], 1)
        fq = QI.domain_feats(tree, Iq); fs = QI.domain_feats(tree, Is)
        D, Do, M, A = fq
        ta = QI.qthr(fs[0].max(1)[[self.F.row[x] for x in self.F.nodes[0]]], keep)
        return QI.climb(D, D, A, ta, self.node_samples(fs[0], keep))

    def residuals(self):
        """Each message's and each chunk's squared norm outside the discriminant subspace, in the
        shrunk within-class whitened input space (the class-independent part of its Mahalanobis
        distance to every class mean), as z-scores over the training chunks."""
        if getattr(self, '_res', None) is None:
            F = self.F; y = F.tree.y; k = y.max() + 1
            Zc_in, Zq_in = QI.block_inputs(F, 256, 1)
            mu = Zc_in.mean(0); Zc = Zc_in - mu; Zq = Zq_in - mu; r = Zc.shape[1]
            means = np.zeros((k, r)); np.add.at(means, y, Zc); means /= np.bincount(y)[:, None]
            R = Zc - means[y]; Sw = R.T @ R / len(y); sh = self.P['shrink']
            S = (1 - sh) * Sw + sh * np.trace(Sw) / r * np.eye(r)
            Winv = np.linalg.inv(np.linalg.cholesky(S))
            wc = Zc @ Winv.T; wq = Zq @ Winv.T; wm = means @ Winv.T
            Bv = np.linalg.svd(wm - wm.mean(0), full_matrices=False)[2][:k - 1].T
            rc = ((wc - (wc @ Bv) @ Bv.T) ** 2).sum(1); rq = ((wq - (wq @ Bv) @ Bv.T) ** 2).sum(1)
            m, sd = np.median(rc), rc.std()
            self._res = ((rq - m) / sd).astype(np.float32), ((rc - m) / sd).astype(np.float32)
        return self._res

    def res(self, keep, a):
        zq, zc = self.residuals()
        F = self.F; tree = self.tree
        zs = zc[F.sampled]
        Iq = self.Iq - np.float32(a) * zq[:, None]; Is = self.Is - np.float32(a) * zs[:, None]
        fq = QI.domain_feats(tree, Iq); fs = QI.domain_feats(tree, Is)
        D, Do, M, A = fq
        ta = QI.qthr(fs[0].max(1)[[F.row[x] for x in F.nodes[0]]], keep)
        return QI.climb(D, D, A, ta, self.node_samples(fs[0], keep))

    def run(self, name, keep):
        m = re.fullmatch(r'res([\d.]+)', name)
        if m: return self.res(keep, float(m.group(1)))
        m = re.fullmatch(r'hub([\d.]+)k(\d+)', name)
        if m: return self.hub(keep, float(m.group(1)), int(m.group(2)))
        return super().run(name, keep)


def main():
    log = lambda s: print(s, flush=True)
    meta = C.meta
    dom_of = {i: d for d, l in meta['domains'].items() for i in l}
    intents_order = [i for d in meta['domains'] for i in meta['domains'][d]]
    pos = {n: i for i, n in enumerate(intents_order)}
    train = C.load('train'); oos_train = C.load('oos_train')
    labs = np.array(train['labels'])
    maxf = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    names = sys.argv[2].split(',') if len(sys.argv) > 2 else ['base', 'hub0.25k10', 'hub0.5k10', 'hub1k10']
    outp = os.path.join(HERE, sys.argv[3] if len(sys.argv) > 3 else 'hubness-cv.json')
    cnt = {}; fold = []
    for l in labs: c = cnt.get(l, 0); cnt[l] = c + 1; fold.append(c % 5)
    fold = np.array(fold)
    per_fold = []
    for f in range(maxf):
        t = time.time()
        tri = np.where(fold != f)[0]; tei = np.where(fold == f)[0]
        tri = tri[np.argsort([pos[l] for l in labs[tri]], kind='stable')]
        log(f'fold {f}:')
        dq = C.concat(C.subset(train, tei), oos_train, ['oos'] * len(oos_train['labels']))
        F = QG.Fold(C.subset(train, tri), dq, dom_of, intents_order, log)
        X = Hub(F, log)
        r = {nm: {str(kp): C.score(F.tree, X.run(nm, kp), dq['labels']) for kp in QI.KEEPS} for nm in names}
        per_fold.append(r)
        log(f'  fold {f} took {time.time() - t:.1f} s')
        del F, X
        summ = QG.summarise(per_fold, log)
        json.dump({'foldsRun': len(per_fold), 'keeps': QI.KEEPS, 'summary': summ, 'perFold': per_fold},
                  open(outp, 'w'), indent=1, default=QI._js)


if __name__ == '__main__':
    main()
