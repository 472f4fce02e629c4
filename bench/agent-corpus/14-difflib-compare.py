import difflib
import random

old = """def load(path):
    with open(path) as f:
        data = f.read()
    return parse(data)

def parse(text):
    rows = text.splitlines()
    return [r.split(',') for r in rows]
""".splitlines(keepends=True)
new = """def load(path, encoding='utf-8'):
    with open(path, encoding=encoding) as f:
        data = f.read()
    return parse(data)

def parse(text, sep=','):
    rows = [r for r in text.splitlines() if r]
    return [r.split(sep) for r in rows]
""".splitlines(keepends=True)
print("".join(difflib.unified_diff(old, new, fromfile="a/io.py", tofile="b/io.py")), end="")

words = ["apple", "applet", "ample", "maple", "pineapple", "apply", "happen", "appeal"]
print("close matches:", difflib.get_close_matches("appel", words, n=4, cutoff=0.5))
random.seed(1414)
base = [random.choice("abcdefghij") for _ in range(800)]
variants = []
for k in range(8):
    v = base[:]
    for _ in range(k * 40):
        v[random.randrange(len(v))] = random.choice("abcdefghij")
    variants.append("".join(v))
ref = "".join(base)
for k, v in enumerate(variants):
    sm = difflib.SequenceMatcher(None, ref, v, autojunk=False)
    print(f"variant {k}: ratio={sm.ratio():.4f} blocks={len(sm.get_matching_blocks())}")
sm = difflib.SequenceMatcher(None, "private Thread currentThread;", "private volatile Thread currentThread;")
print(sm.get_opcodes())
