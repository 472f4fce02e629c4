import itertools
import random
from collections import Counter, defaultdict

random.seed(606)
vocab = ("the quick brown fox jumps over lazy dog data model agent python sandbox "
         "query result table index value error cache token stream").split()
words = [random.choice(vocab) for _ in range(200000)]

counts = Counter(words)
print("distinct:", len(counts), "total:", sum(counts.values()))
print("top 5:", counts.most_common(5))
by_len = defaultdict(list)
for w in counts:
    by_len[len(w)].append(w)
for n in sorted(by_len):
    print(f"len {n}: {sorted(by_len[n])}")

bigrams = Counter(zip(words, words[1:]))
print("top bigrams:", bigrams.most_common(3))

runs = [(k, len(list(g))) for k, g in itertools.groupby(words)]
longest = max(runs, key=lambda kv: kv[1])
print("runs:", len(runs), "longest run:", longest)
initial = sorted(words[:5000])
groups = {k: len(list(g)) for k, g in itertools.groupby(initial, key=lambda w: w[0])}
print("by initial letter:", groups)
acc = list(itertools.accumulate(counts[w] for w in sorted(counts)))
print("cumulative:", acc[:6], "...", acc[-1])
