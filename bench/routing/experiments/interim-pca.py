"""The interim fit's PCA dimensions: student + hashed fitted with a randomised PCA of 256 or 512
dimensions (the library's default), calibrated at keep 0.95, routed with the climb; CV on CLINC150
train (+ oos_train), the first `maxf` of 5 folds. python3 interim-pca.py [maxf]"""
import sys, time
import numpy as np
import cascade as c

maxf = int(sys.argv[1]) if len(sys.argv) > 1 else 3
dom_of = {i: d for d, l in c.meta['domains'].items() for i in l}
order = [i for d in c.meta['domains'] for i in c.meta['domains'][d]]
pos = {n: i for i, n in enumerate(order)}
train = c.load('train'); oos = c.load('oos_train')
labs = np.array(train['labels'])
cnt = {}; fold = []
for l in labs: k = cnt.get(l, 0); cnt[l] = k + 1; fold.append(k % 5)
fold = np.array(fold)
res = {256: [], 512: []}
orig_fit = c.fit
for f in range(maxf):
    tri = np.where(fold != f)[0]; tei = np.where(fold == f)[0]
    tri = tri[np.argsort([pos[l] for l in labs[tri]], kind='stable')]
    dc = c.subset(train, tri)
    tree = c.Tree(dc['labels'], dom_of, order)
    dq = c.concat(c.subset(train, tei), oos, ['oos'] * len(oos['labels']))
    for r in (256, 512):
        t = time.time()
        c.fit = lambda X, y, r=r: orig_fit(X, y, pca=r)
        space = c.Space(dc, 'student', tree.y)
        ta, td = c.calibrate(tree, space, dc, 0.95)
        pred, _ = c.route(tree, space.sims(dq), ta, td)
        s = c.score(tree, pred, dq['labels'])
        res[r].append(s)
        print(f'fold {f} pca {r}: {s} ({time.time() - t:.1f} s)', flush=True)
for r, rows in res.items():
    print(r, {a: round(float(np.mean([x[a] for x in rows])), 4) for a in rows[0]})
