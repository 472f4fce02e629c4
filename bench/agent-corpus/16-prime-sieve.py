import math

def sieve(n):
    is_p = bytearray([1]) * (n + 1)
    is_p[0] = is_p[1] = 0
    for i in range(2, math.isqrt(n) + 1):
        if is_p[i]:
            for j in range(i * i, n + 1, i):
                is_p[j] = 0
    return [i for i in range(n + 1) if is_p[i]]

N = 600000
primes = sieve(N)
print("primes below", N, ":", len(primes))
print("last five:", primes[-5:])
twins = sum(1 for a, b in zip(primes, primes[1:]) if b - a == 2)
print("twin prime pairs:", twins)
gaps = {}
for a, b in zip(primes, primes[1:]):
    gaps[b - a] = gaps.get(b - a, 0) + 1
print("largest gap:", max(gaps), "most common gaps:", sorted(gaps.items(), key=lambda kv: -kv[1])[:4])
pset = set(primes)
goldbach_fail = [n for n in range(4, 20001, 2) if not any((n - p) in pset for p in primes if p <= n // 2)]
print("goldbach counterexamples < 20000:", goldbach_fail)
def factor(n):
    out = []
    for p in primes:
        if p * p > n:
            break
        while n % p == 0:
            out.append(p)
            n //= p
    if n > 1:
        out.append(n)
    return out
for n in (360, 9999991, 600851475143, 2 ** 32 + 1):
    print(n, "=", " * ".join(map(str, factor(n))))
