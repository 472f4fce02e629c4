import random

def levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        prev = cur
    return prev[-1]

random.seed(909)
alphabet = "acgt"
def mutate(s):
    s = list(s)
    for _ in range(random.randint(1, 6)):
        op = random.choice("isd")
        k = random.randint(0, len(s) - 1)
        if op == "i":
            s.insert(k, random.choice(alphabet))
        elif op == "s":
            s[k] = random.choice(alphabet)
        elif len(s) > 1:
            del s[k]
    return "".join(s)

pairs = []
for _ in range(120):
    base = "".join(random.choice(alphabet) for _ in range(random.randint(20, 60)))
    pairs.append((base, mutate(base)))
dists = [levenshtein(a, b) for a, b in pairs]
print("pairs:", len(pairs), "total distance:", sum(dists), "max:", max(dists))
print("distance histogram:", {d: dists.count(d) for d in sorted(set(dists))})
for w1, w2 in [("kitten", "sitting"), ("flaw", "lawn"), ("intention", "execution"), ("", "abc")]:
    print(f"{w1!r} -> {w2!r}: {levenshtein(w1, w2)}")
words = ["python", "pyhton", "java", "javascript", "typescript", "pythonic", "jython"]
query = "pythn"
print("closest to", query, ":", sorted(words, key=lambda w: (levenshtein(query, w), w))[:3])
