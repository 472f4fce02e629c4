import math
import random

random.seed(808)
N = 200000
inside = 0
for _ in range(N):
    x, y = random.random(), random.random()
    if x * x + y * y <= 1.0:
        inside += 1
print(f"pi estimate: {4 * inside / N:.5f} (error {abs(4 * inside / N - math.pi):.5f})")

rolls = [random.randint(1, 6) + random.randint(1, 6) for _ in range(60000)]
hist = [rolls.count(s) for s in range(2, 13)]
for s, c in zip(range(2, 13), hist):
    print(f"{s:>2} {c:>6} {'#' * (c // 400)}")

pos, max_pos, crossings = 0, 0, 0
for _ in range(50000):
    step = random.choice((-1, 1))
    if pos == 0 and step == 1 and pos + step > 0:
        crossings += 1
    pos += step
    max_pos = max(max_pos, pos)
print("random walk: final", pos, "max", max_pos, "upcrossings", crossings)

samples = [random.gauss(50, 12) for _ in range(20000)]
m = math.fsum(samples) / len(samples)
var = math.fsum((s - m) ** 2 for s in samples) / (len(samples) - 1)
print(f"gauss mean {m:.4f} sd {math.sqrt(var):.4f}")
deck = [r + s for s in "SHDC" for r in "23456789TJQKA"]
random.shuffle(deck)
print("hand:", deck[:5], "sample:", random.sample(range(1000), 6))
