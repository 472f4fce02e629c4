# Numbers: exact and decimal arithmetic, random sampling, math, a simulation.
import math, random, fractions, decimal, itertools, functools
rng = random.Random(7)
walk = list(itertools.accumulate(rng.choice((-1, 1)) for _ in range(5000)))
decimal.getcontext().prec = 30
share = decimal.Decimal(1) / decimal.Decimal(7)
harmonic = sum(fractions.Fraction(1, n) for n in range(1, 60))
@functools.lru_cache(maxsize=None)
def paths(n, k):
    return 1 if k in (0, n) else paths(n - 1, k - 1) + paths(n - 1, k)
inside = sum(1 for _ in range(20000) if rng.random() ** 2 + rng.random() ** 2 <= 1)
print(max(walk), min(walk), share, float(harmonic), paths(40, 20), 4 * inside / 20000, math.comb(50, 25),
      math.isqrt(10 ** 20), round(math.hypot(3, 4), 3), rng.sample(range(100), 5))
