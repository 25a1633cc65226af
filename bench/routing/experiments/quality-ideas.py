"""Round 4 of the quality grid (issue #43 goal 2): new decline rules for the USE-lite + hashed fitted space
on CLINC150, by the same 5-fold CV on train (oos_train as out-of-scope) as quality-grid.py, whose Fold
(fit, similarities, sampled chunks), summary and paired differences this script reuses. The fit is the
baseline's (randomised PCA 512, shrunk LDA 0.2, W 0.25, 2:1 mix) in every variant but eigG and blockR;
the others change only the decline rule. Each variant has
one knob (the keep, or what it sets) and is calibrated on the training fold only; its other parameters
are learned on the training fold only (pseudo data from refits without some chunks / intents).

Extra fits ("refits") keep the training fold's PCA (unsupervised) and refit only the shrunk LDA without
the held-out chunks (the LDA is what pulls a node's chunks together; 0.1-0.3 s each in numpy, against
~3 s for the PCA).

Variants:
  base            the baseline climb (domains by their best chunk; agent threshold ta; domain thresholds td
                  = keep quantile of 128 sampled chunks' nearest other chunk in the domain).
  shrinkA         domain thresholds pulled toward their mean: td' = (1-A) td + A mean(td)   (A 0.5, 1)
  energyT         node score = T log sum_c exp(sim_c / T) over the node's chunks (domain: all its chunks),
                  for ordering, thresholds and the agent's stop; calibrated on the same score; the intent
                  inside the domain still by its nearest chunk.
  cf128 / cfall   cross-fitted calibration: 5 LDA refits inside the training fold, each without one fifth
                  of every intent's chunks; a held-out chunk's node score = its best similarity to the
                  refit's chunks of the node; td / ta = keep quantile over the 128 sampled chunks per node
                  (cf128) or over every chunk of the node (cfall).
  unkK groups (idea 1, "unknown intent" model): K=5 refits; refit g leaves out the intents of group g
                  (in every domain 3 of its 15 intents, by their rank in the domain mod 5) and one fifth of
                  the other intents' chunks. Pseudo in-scope = those held-out chunks routed right; pseudo
                  out-of-scope = the left-out intents' chunks. Features at the message's top domain d:
                  D (best chunk), D - Do (Do: best other domain, the sibling), I1 - I2 (margin between the
                  domain's two best intents). A class-balanced logistic regression on the pseudo data:
    lrm           score z_d = D_d + b (D_d - Do_d) + c (I1_d - I2_d), (b, c) from the regression (ratios to
                  D's weight); per-domain thresholds on z, calibrated as the baseline's (keep quantile of
                  the 128 sampled chunks' z for their own domain); the agent threshold as the baseline.
    lrthr         per-domain thresholds from the regression on [D, one-hot domain]: theta_d = -e_d / a,
                  shifted by one common offset (the knob: the keep quantile of the sampled chunks'
                  D - theta_d over all domain samples pooled); score D.
    lrfull        both: z_d with (b, c) and theta_d from [D, D-Do, I1-I2, one-hot domain], pooled offset.

  noclimb         only the top domain is tried (no descent to the next domain).
  eigG            the baseline PCA; each LDA output direction scaled by (its eigenvalue / the largest) ** G.
  blockR[sS][wW][rN] (a change to the fit, not to the rule) the LDA input without the joint PCA: the USE-lite
                  part whole (512 dims, centred on the chunks' mean, x sqrt(2/3)) next to a randomised PCA
                  of the hashed part alone to R dims (centred, x sqrt(1/3); Gaussian start seed 1, two
                  rounds of H^T H Q + QR as quality-grid's); then the same shrunk LDA (shrinkage S, default
                  0.2) and fitted vector (base weight W, default 0.25); rN: the PCA's seed (default 1). 'blockR+rule' applies a rule above
                  (cfall, shrink1) on that fit.

python3 bench/routing/experiments/quality-ideas.py cv [maxfolds] [variant,...] [out.json]  # -> quality-ideas-cv.json
python3 bench/routing/experiments/quality-ideas.py merge out.json in1.json in2.json ...     # one table over runs
python3 bench/routing/experiments/quality-ideas.py times base,block256,block1536 [reps]      # fit cost, all of train
(reads train and oos_train only; never val / oos_val)
"""
import importlib.util, json, os, sys, time
import numpy as np
from scipy.optimize import minimize

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cascade as C  # noqa: E402
_spec = importlib.util.spec_from_file_location('quality_grid', os.path.join(HERE, 'quality-grid.py'))
QG = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(QG)

KEEPS = [0.90, 0.91, 0.92, 0.93, 0.94, 0.945, 0.95, 0.955, 0.96, 0.965, 0.97, 0.975, 0.98, 0.985, 0.99, 0.995]
if os.environ.get('QI_KEEPS'):                  # e.g. QI_KEEPS=0.95:0.999:0.0025 (start:stop:step)
    _a, _z, _s = (float(v) for v in os.environ['QI_KEEPS'].split(':'))
    KEEPS = [round(_a + i * _s, 4) for i in range(int(round((_z - _a) / _s)) + 1)]
QG.KEEPS = KEEPS
K_IN = 5                      # inner refits
P = QG.params('base')
NEG = np.float32(-np.inf)


def domain_feats(tree, I):
    """Per message and domain: D (best intent = best chunk), Do (best other domain), I1 - I2 (margin
    between the domain's two best intents), the domain's best intent."""
    n = I.shape[0]; nd = len(tree.doms)
    ends = list(tree.dstart[1:]) + [I.shape[1]]
    D = np.empty((n, nd), np.float64); M = np.empty((n, nd)); A = np.empty((n, nd), int)
    for d, (a, z) in enumerate(zip(tree.dstart, ends)):
        blk = I[:, a:z]
        o = np.argsort(-blk, 1)[:, :2]
        t1 = np.take_along_axis(blk, o[:, :1], 1)[:, 0]; t2 = np.take_along_axis(blk, o[:, 1:2], 1)[:, 0]
        D[:, d] = t1; A[:, d] = a + o[:, 0]
        M[:, d] = np.where(np.isfinite(t2), t1 - t2, 0.5)
    s = np.sort(D, 1)
    Do = np.where(D >= s[:, -1:], s[:, -2:-1], s[:, -1:])
    Do = np.where(np.isfinite(Do), Do, 0.0)
    return D, Do, M, A


def climb(D, Z, Darg, ta, td, depth=None):
    """The climb: domains in the order of D; stop (decline) when D < ta; answer the domain's best intent
    when Z >= td[d]; else the next domain. Z = D is the baseline (equals quality-grid's route)."""
    n, nd = D.shape
    pred = np.full(n, -1); open_ = np.ones(n, bool)
    order = np.argsort(-D, axis=1); ar = np.arange(n)
    for k in range(nd if depth is None else depth):
        d = order[:, k]; b = D[ar, d]
        stop = open_ & (b < ta); open_ &= ~stop
        ans = open_ & (Z[ar, d] >= td[d])
        pred[ans] = Darg[ar, d][ans]
        open_ &= ~ans
    return pred


def qthr(vals, keep, floor=0.25):
    vals = np.sort(vals)
    dropped = min(len(vals) - 1, max(0, int(np.floor((1 - keep) * len(vals)))))
    v = np.floor((vals[dropped] - 1e-4) * 1000) / 1000
    return v if floor is None else max(floor, v)


def intent_max(S, yC, k):
    """Per-intent best similarity over columns C (sorted by intent), -inf for intents absent from C."""
    out = np.full((S.shape[0], k), NEG, np.float32)
    present, starts = np.unique(yC, return_index=True)
    out[:, present] = np.maximum.reduceat(S, starts, axis=1)
    return out


def lda_refit(Z, y, rows, shrink):
    """quality-grid's shrunk LDA on the PCA scores Z of `rows` only; returns the unit fitted (LDA) vectors
    of every chunk."""
    yi = np.unique(y[rows], return_inverse=True)[1]
    return lda_full(Z[rows], yi, Z, shrink)[1].astype(np.float32)


def logreg(X, yb, n_free):
    """Class-balanced logistic regression, no separate intercept (X carries it), small L2 on the first
    n_free columns."""
    w = np.where(yb, 0.5 / yb.mean(), 0.5 / (1 - yb.mean())) / len(yb)
    s = np.where(yb, 1.0, -1.0)

    def f(th):
        m = s * (X @ th)
        l = np.logaddexp(0, -m)
        g = -(w * s * (1 / (1 + np.exp(m)))) @ X
        reg = 1e-4 * (th[:n_free] ** 2).sum()
        g[:n_free] += 2e-4 * th[:n_free]
        return (w * l).sum() + reg, g
    th = minimize(f, np.zeros(X.shape[1]), jac=True, method='L-BFGS-B', options={'maxiter': 2000}).x
    return th


def lda_full(Zc, y, Zq, shrink, gamma=0.0):
    """The shrunk LDA on input scores Zc (chunks), applied to Zc and Zq; gamma != 0 scales each output
    direction by its between/within eigenvalue ** gamma (0 = quality-grid's LDA)."""
    mu = Zc.mean(0); Zc = Zc - mu; Zq = Zq - mu
    B, ev = C.lda_directions(Zc, y, shrink)
    if gamma: B = B * (np.maximum(ev, 1e-12) / ev[0]) ** gamma
    return QG.nrm(Zc @ B), QG.nrm(Zq @ B)


def block_inputs(F, rh, seed=1):
    """LDA input without the joint PCA: the USE part whole (512 dims, centred, x sqrt(2/3)) next to a
    randomised PCA (power 1, seed 1, as quality-grid) of the hashed part alone to rh dims (x sqrt(1/3))."""
    a, b = P['mix']; sa, sb = np.sqrt(a / (a + b)), np.sqrt(b / (a + b))
    Uc, Uq = F.use(False)[:2]
    H, Hq = F.tr['H'], F.q['H']; n, d = H.shape
    muh = np.asarray(H.mean(0)).ravel()
    rng = np.random.default_rng(seed)
    Q = rng.standard_normal((d, rh))
    for _ in range(2):
        Pm = np.asarray(H.T @ (H @ Q)) - n * np.outer(muh, muh @ Q)
        Q, _ = np.linalg.qr(Pm)
    muu = Uc.mean(0)
    Zc = np.hstack([sa * (Uc - muu), sb * (np.asarray(H @ Q) - muh @ Q)])
    Zq = np.hstack([sa * (Uq - muu), sb * (np.asarray(Hq @ Q) - muh @ Q)])
    return Zc, Zq


def fitted_sims(F, Zc, Zq, P=P):
    """As Fold.sims: fitted (LDA) part + base part at weight W, queries x chunks and sampled x chunks."""
    _, _, Su_q, Su_s = F.use(False)
    a, b = P['mix']; wa, wb = a / (a + b), b / (a + b); w = P['w']
    Zc32 = Zc.astype(np.float32); Zq32 = Zq.astype(np.float32)
    Sq = (Zq32 @ Zc32.T) * np.float32(1 / (1 + w)) + np.float32(w / (1 + w)) * (np.float32(wa) * Su_q + np.float32(wb) * F.Sh_q)
    Ss = (Zc32[F.sampled] @ Zc32.T) * np.float32(1 / (1 + w)) + np.float32(w / (1 + w)) * (np.float32(wa) * Su_s + np.float32(wb) * F.Sh_s)
    return Sq, Ss


class Ideas:
    def __init__(self, F, log, fit='base'):
        t = time.time()
        self.F = F; tree = F.tree; self.tree = tree
        y = tree.y; n = len(y); k = len(tree.names)
        self.cost = {}; self.P = P
        if fit == 'base':
            tt = time.time(); F.pca(P); tp = time.time() - tt
            F.lda(P); self.cost['fit'] = dict(input_seconds=tp, lda_seconds=time.time() - tt - tp, dims=P['pca'])
            Sq, Ss = F.sims(P)
            self.Zin = F.pca(P)[2]
        else:
            tt = time.time()
            if fit.startswith('block'):                # block<r>[s<shrink>][w<W>]
                import re
                mt = re.fullmatch(r'block(\d+)(?:s([\d.]+))?(?:w([\d.]+))?(?:r(\d+))?', fit)
                Zc_in, Zq_in = block_inputs(F, int(mt.group(1)), int(mt.group(4) or 1)); gamma = 0.0
                if mt.group(2): self.P = dict(self.P, shrink=float(mt.group(2)))
                if mt.group(3): self.P = dict(self.P, w=float(mt.group(3)))
            else:                                      # eigG: the baseline PCA, LDA directions scaled
                Q, mu, Zc_in = F.pca(P)[:3]; gamma = float(fit[3:])
                Uq = F.use(False)[1]; sa, sb, du = F.pca(P)[3:]
                Zq_in = sa * (Uq @ Q[:du]) + sb * np.asarray(F.q['H'] @ Q[du:]) - (mu @ Q)[None, :]
            tp = time.time() - tt
            Zc, Zq = lda_full(Zc_in, y, Zq_in, self.P['shrink'], gamma)
            self.cost['fit'] = dict(input_seconds=tp, lda_seconds=time.time() - tt - tp, dims=Zc_in.shape[1])
            Sq, Ss = fitted_sims(F, Zc, Zq, self.P)
            self.Zin = Zc_in
        Ss = Ss.copy(); Ss[F.same] = -np.inf
        self.Sq, self.Ss = Sq, Ss
        self.Iq = QG.intent_scores(tree, Sq, 1); self.Is = QG.intent_scores(tree, Ss, 1)
        self.fq = domain_feats(tree, self.Iq)
        self.fs = domain_feats(tree, self.Is)
        log(f'  {fit}: fit + sims {time.time() - t:.1f} s')
        self._cf = None; self._unk = None

    # --- helpers on the sampled chunks (the baseline's calibration sample) ---
    def node_samples(self, vals_by_sample_dom, keep, floor=0.25):
        """td from a (sampled x domains) score matrix: each domain node's samples, their own domain."""
        F = self.F
        return np.array([qthr(vals_by_sample_dom[[F.row[x] for x in F.nodes[1 + d]], d], keep, floor)
                         for d in range(len(self.tree.doms))])

    def ta(self, keep, Dmat=None):
        F = self.F; Dm = self.fs[0] if Dmat is None else Dmat
        return qthr(Dm.max(1)[[F.row[x] for x in F.nodes[0]]], keep)

    # --- variants: each returns {keep: (pred)} ---
    def base(self, keep):
        D, Do, M, A = self.fq
        return climb(D, D, A, self.ta(keep), self.node_samples(self.fs[0], keep))

    def noclimb(self, keep):
        D, Do, M, A = self.fq
        return climb(D, D, A, self.ta(keep), self.node_samples(self.fs[0], keep), depth=1)

    def shrink(self, keep, a):
        D, Do, M, A = self.fq
        td = self.node_samples(self.fs[0], keep)
        return climb(D, D, A, self.ta(keep), (1 - a) * td + a * td.mean())

    def energy(self, keep, T):
        tree = self.tree; ends = list(tree.dstart[1:]) + [len(tree.names)]
        cs = [tree.istart[a] for a in tree.dstart] + [self.Sq.shape[1]]

        def E(S):
            out = np.empty((S.shape[0], len(tree.doms)))
            for d in range(len(tree.doms)):
                blk = S[:, cs[d]:cs[d + 1]].astype(np.float64)
                m = blk.max(1, keepdims=True)
                out[:, d] = m[:, 0] + T * np.log(np.exp((blk - m) / T).sum(1))
            return out
        if not hasattr(self, '_E'): self._E = {}
        if T not in self._E:
            t = time.time(); self._E[T] = (E(self.Sq), E(self.Ss))
            self.cost[('energy', T)] = dict(seconds_queries_and_samples=time.time() - t)
        Eq, Es = self._E[T]
        ta = self.ta(keep, Es)
        td = self.node_samples(Es, keep)
        return climb(Eq, Eq, self.fq[3], ta, td)

    # --- refits ---
    def base_cc(self):
        """Base (2:1 USE + hashed) similarities chunk x chunk, once per fold."""
        if getattr(self, '_Bcc', None) is None:
            F = self.F
            Uc = F.use(False)[0].astype(np.float32)
            a, b = P['mix']; wa, wb = a / (a + b), b / (a + b)
            H = F.tr['H']
            B = (H @ H.T).toarray().astype(np.float32); B *= np.float32(wb)
            B += np.float32(wa) * (Uc @ Uc.T)
            self._Bcc = B
        return self._Bcc

    def refit_sims(self, Zr, R, Cc):
        """Fitted similarities of chunks R to chunks Cc under a refit's LDA vectors Zr (base part shared)."""
        w = self.P['w']
        S = (Zr[R] @ Zr[Cc].T) * np.float32(1 / (1 + w))
        S += np.float32(w / (1 + w)) * self.base_cc()[np.ix_(R, Cc)]
        tx = np.array(self.F.tr['texts'])
        S[tx[R][:, None] == tx[Cc][None, :]] = -np.inf
        return S

    def inner_rank(self):
        y = self.tree.y
        r = np.empty(len(y), int)
        for i, a in enumerate(self.tree.istart):
            z = self.tree.istart[i + 1] if i + 1 < len(self.tree.istart) else len(y)
            r[a:z] = np.arange(z - a)
        return r % K_IN

    def crossfit(self):
        """Held-out node scores for every chunk: its own domain's best and the best overall, from the refit
        without its fifth."""
        if self._cf is None:
            t = time.time()
            F = self.F; tree = self.tree; y = tree.y; k = len(tree.names)
            Z = self.Zin
            inner = self.inner_rank()
            Dn = np.empty((len(y), len(tree.doms)), np.float32)
            tfit = 0.0
            for j in range(K_IN):
                R = np.where(inner == j)[0]; Cc = np.where(inner != j)[0]
                tt = time.time(); Zr = lda_refit(Z, y, Cc, self.P['shrink']); tfit += time.time() - tt
                I = intent_max(self.refit_sims(Zr, R, Cc), y[Cc], k)
                Dn[R] = np.maximum.reduceat(I, tree.dstart, axis=1)
            self._cf = Dn
            self.cost['cf'] = dict(lda_refits=tfit, total=time.time() - t)
        return self._cf

    def cf(self, keep, allchunks):
        tree = self.tree; Dn = self.crossfit(); F = self.F
        D, Do, M, A = self.fq
        if allchunks:
            td = np.array([qthr(Dn[tree.cd == d, d], keep) for d in range(len(tree.doms))])
            ta = qthr(Dn.max(1), keep)
        else:
            td = np.array([qthr(Dn[F.nodes[1 + d], d], keep) for d in range(len(tree.doms))])
            ta = qthr(Dn[F.nodes[0]].max(1), keep)
        return climb(D, D, A, ta, td)

    def unknown(self):
        """Pseudo data: features at the top domain of pseudo in-scope (routed right) and pseudo-OOS chunks."""
        if self._unk is None:
            t = time.time()
            F = self.F; tree = self.tree; y = tree.y; k = len(tree.names)
            Z = self.Zin
            inner = self.inner_rank()
            rank_in_dom = np.array([i - tree.dstart[tree.dom_of_int[i]] for i in range(k)])
            grp = rank_in_dom % K_IN
            rows = []; tfit = 0.0
            for g in range(K_IN):
                out_int = grp[y] == g
                Cc = np.where(~out_int & (inner != g))[0]
                Rin = np.where(~out_int & (inner == g))[0]
                Rout = np.where(out_int)[0]
                R = np.concatenate([Rin, Rout])
                tt = time.time(); Zr = lda_refit(Z, y, Cc, self.P['shrink']); tfit += time.time() - tt
                I = intent_max(self.refit_sims(Zr, R, Cc), y[Cc], k)
                D, Do, M, A = domain_feats(tree, I)
                top = np.argmax(D, 1); ar = np.arange(len(R))
                lab = np.concatenate([np.ones(len(Rin), bool), np.zeros(len(Rout), bool)])
                right = A[ar, top] == y[R]
                keepm = ~lab | right
                rows.append(np.column_stack([D[ar, top], D[ar, top] - Do[ar, top], M[ar, top], top, lab])[keepm])
            self._unk = np.vstack(rows)
            self.cost['unk'] = dict(lda_refits=tfit, total=time.time() - t)
        return self._unk

    def lr(self, kind):
        key = ('lr', kind)
        if key not in self.cost:
            U = self.unknown(); nd = len(self.tree.doms)
            yb = U[:, 4] > 0.5; dom = U[:, 3].astype(int); OH = np.eye(nd)[dom]
            if kind == 'lrm':
                X = np.column_stack([U[:, 0], U[:, 1], U[:, 2], np.ones(len(U))]); th = logreg(X, yb, 3)
                self._lr = {kind: dict(a=th[0], b=th[1] / th[0], c=th[2] / th[0], theta=None)}
            elif kind == 'lrthr':
                X = np.column_stack([U[:, 0], OH]); th = logreg(X, yb, 1)
                self._lr = {kind: dict(a=th[0], b=0.0, c=0.0, theta=-th[1:] / th[0])}
            else:
                X = np.column_stack([U[:, 0], U[:, 1], U[:, 2], OH]); th = logreg(X, yb, 3)
                self._lr = {kind: dict(a=th[0], b=th[1] / th[0], c=th[2] / th[0], theta=-th[3:] / th[0])}
            self.cost[key] = self._lr[kind]
            self.cost[key + ('pseudo',)] = dict(n_in=int(yb.sum()), n_oos=int((~yb).sum()))
        return self.cost[key]

    def lrvariant(self, keep, kind):
        m = self.lr(kind); F = self.F
        D, Do, M, A = self.fq
        Zq = D + m['b'] * (D - Do) + m['c'] * M
        Ds, Dos, Ms, _ = self.fs
        Zs = Ds + m['b'] * (Ds - Dos) + m['c'] * Ms
        ta = self.ta(keep)
        if m['theta'] is None:
            td = self.node_samples(Zs, keep, floor=None)
        else:
            th = m['theta']
            u = np.concatenate([Zs[[F.row[x] for x in F.nodes[1 + d]], d] - th[d] for d in range(len(th))])
            td = th + qthr(u, keep, floor=None)
        return climb(D, Zq, A, ta, td)

    def run(self, name, keep):
        if name in ('base', ''): return self.base(keep)
        if name == 'noclimb': return self.noclimb(keep)
        if name.startswith('shrink'): return self.shrink(keep, float(name[6:]))
        if name.startswith('energy'): return self.energy(keep, float(name[6:]))
        if name == 'cf128': return self.cf(keep, False)
        if name == 'cfall': return self.cf(keep, True)
        if name in ('lrm', 'lrthr', 'lrfull'): return self.lrvariant(keep, name)
        raise KeyError(name)


def _js(o):
    return o.tolist() if hasattr(o, 'tolist') else str(o)


ALL = ['base', 'shrink0.5', 'shrink1', 'energy0.005', 'energy0.01', 'energy0.02', 'energy0.04',
       'cf128', 'cfall', 'lrm', 'lrthr', 'lrfull', 'eig0.25', 'eig-0.25',
       'block256', 'block512', 'block768', 'block1024', 'block1536']


def table(files, outp, log):
    """Merges the per-fold results of several cv runs (the same folds; the baseline must agree) and writes
    the summary, a markdown table and the per-fold paired difference of right @0.90 (each fold's own
    curve, interpolated) into one json."""
    runs = [json.load(open(os.path.join(HERE, f))) for f in files]
    per_fold = [dict() for _ in range(runs[0]['foldsRun'])]
    costs = [dict() for _ in per_fold]
    for d in runs:
        for i, r in enumerate(d['perFold']):
            if 'base' in per_fold[i]: assert r['base'] == per_fold[i]['base']
            per_fold[i].update(r); costs[i].update(d['costsAndLearnedParams'][i])
    summ = QG.summarise(per_fold, log)
    log('\n| variant | keep | right | answered | declined | right @0.90 | paired Δright at the pick | '
        'paired Δ(right @0.90), per fold |\n|---|---|---|---|---|---|---|---|')
    for nm, sm in summ.items():
        v = sm['atPick']; dr = sm['pairedVsBase']['right']
        a = [QG.right_at(r[nm], 0.90) for r in per_fold]; b = [QG.right_at(r['base'], 0.90) for r in per_fold]
        d9 = [x - y for x, y in zip(a, b) if x is not None and y is not None]
        sm['pairedRightAt090PerFold'] = d9
        r90 = '—' if sm['rightAt090'] is None else f"{sm['rightAt090']:.3f}"
        log(f"| {nm} | {sm['keep']} | {v['right']:.3f} | {v['answered']:.3f} | {v['oos']:.3f} | {r90} | "
            f"{np.mean(dr):+.3f} [{min(dr):+.3f}, {max(dr):+.3f}] | "
            f"{np.mean(d9):+.3f} [{min(d9):+.3f}, {max(d9):+.3f}] ({len(d9)} folds) |")
    json.dump({'folds': runs[0]['folds'], 'foldsRun': len(per_fold), 'keeps': KEEPS, 'base': QG.BASE,
               'innerRefits': K_IN, 'mergedFrom': files, 'summary': summ, 'perFold': per_fold,
               'costsAndLearnedParams': costs}, open(os.path.join(HERE, outp), 'w'), indent=1, default=_js)


def main():
    log = lambda s: print(s, flush=True)
    if sys.argv[1] == 'merge':           # merge out.json in1.json in2.json ...
        return table(sys.argv[3:], sys.argv[2], log)
    meta = C.meta
    dom_of = {i: d for d, l in meta['domains'].items() for i in l}
    intents_order = [i for d in meta['domains'] for i in meta['domains'][d]]
    pos = {n: i for i, n in enumerate(intents_order)}
    t0 = time.time()
    train = C.load('train'); oos_train = C.load('oos_train')
    if sys.argv[1] == 'times':           # fit cost on all of train (15,000 chunks), one process, this machine
        tri = np.arange(len(train['labels'])); labs = np.array(train['labels'])
        tri = tri[np.argsort([pos[l] for l in labs], kind='stable')]
        F = QG.Fold(C.subset(train, tri), oos_train, dom_of, intents_order, log)
        y = F.tree.y
        for rep in range(int(sys.argv[3]) if len(sys.argv) > 3 else 2):
            for fit in sys.argv[2].split(','):
                t = time.time()
                if fit == 'base':
                    F.pcas.clear(); F.ldas.clear(); F.pca(P); tp = time.time() - t
                    Zc_in = F.pcas[(P['mix'], P['pca'], P['exact'], P['usec'])][2]
                else:
                    Zc_in = block_inputs(F, int(fit[5:]))[0]; tp = time.time() - t
                tt = time.time(); lda_full(Zc_in, y, Zc_in[:10], P['shrink']); tl = time.time() - tt
                tt = time.time(); lda_refit(Zc_in, y, np.arange(len(y))[np.arange(len(y)) % 5 != 0], P['shrink']); tr_ = time.time() - tt
                log(f'{fit:>10} rep {rep}: input (PCA) {tp:.1f} s, LDA + projecting the chunks {tl:.1f} s '
                    f'(one LDA refit on 4/5 of the chunks {tr_:.1f} s), {Zc_in.shape[1]} dims')
        return
    assert sys.argv[1] == 'cv'
    labs = np.array(train['labels'])
    folds = 5
    maxf = int(sys.argv[2]) if len(sys.argv) > 2 else folds
    names = sys.argv[3].split(',') if len(sys.argv) > 3 else ALL
    outp = os.path.join(HERE, sys.argv[4] if len(sys.argv) > 4 else 'quality-ideas-cv.json')
    cnt = {}; fold = []
    for l in labs: c = cnt.get(l, 0); cnt[l] = c + 1; fold.append(c % folds)
    fold = np.array(fold)
    per_fold = []; costs = []
    for f in range(maxf):
        t = time.time()
        tri = np.where(fold != f)[0]; tei = np.where(fold == f)[0]
        tri = tri[np.argsort([pos[l] for l in labs[tri]], kind='stable')]
        log(f'fold {f}:')
        dq = C.concat(C.subset(train, tei), oos_train, ['oos'] * len(oos_train['labels']))
        F = QG.Fold(C.subset(train, tri), dq, dom_of, intents_order, log)
        X = Ideas(F, log)
        # sanity: the climb here equals quality-grid's route
        ref = QG.evaluate(F, 'base', dq['labels'])['0.965']
        mine = C.score(F.tree, X.base(0.965), dq['labels'])
        assert all(abs(ref[a] - mine[a]) < 1e-12 for a in ref), (ref, mine)
        r = {}; Xs = {'base': X}
        for nm in names:
            tt = time.time()
            fit = nm.split('+')[0] if nm.startswith(('block', 'eig')) else 'base'
            rule = nm[len(fit) + 1:] if fit != 'base' else nm
            if fit not in Xs: Xs[fit] = Ideas(F, log, fit)
            r[nm] = {str(kp): C.score(F.tree, Xs[fit].run(rule, kp), dq['labels']) for kp in KEEPS}
            v = r[nm]['0.965']
            log(f'  {nm:>12} ({time.time() - tt:5.1f} s) keep 0.965: right {v["right"]:.3f} answered '
                f'{v["answered"]:.3f} declined {v["oos"]:.3f}')
        c = {f'{fit}:{k}': v for fit, XX in Xs.items() for k, v in XX.cost.items()}
        log(f'  costs/params: {json.dumps(c, default=_js)}')
        costs.append(c)
        per_fold.append(r)
        log(f'  fold {f} took {time.time() - t:.1f} s')
        del F, X, Xs
        summ = QG.summarise(per_fold, log)
        json.dump({'folds': folds, 'foldsRun': len(per_fold), 'keeps': KEEPS, 'base': QG.BASE, 'innerRefits': K_IN,
                   'summary': summ, 'perFold': per_fold, 'costsAndLearnedParams': costs},
                  open(outp, 'w'), indent=1, default=_js)
    log(f'total {time.time() - t0:.1f} s')


if __name__ == '__main__':
    main()
