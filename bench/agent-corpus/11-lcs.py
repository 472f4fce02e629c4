import random

def lcs(a, b):
    n, m = len(a), len(b)
    L = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        Li, Li1, ai = L[i], L[i + 1], a[i]
        for j in range(m - 1, -1, -1):
            Li[j] = Li1[j + 1] + 1 if ai == b[j] else max(Li1[j], Li[j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append(a[i]); i += 1; j += 1
        elif L[i + 1][j] >= L[i][j + 1]:
            i += 1
        else:
            j += 1
    return "".join(out)

random.seed(1111)
a = "".join(random.choice("ABCDEFGH") for _ in range(600))
b = "".join(random.choice("ABCDEFGH") for _ in range(550))
s = lcs(a, b)
print("lengths:", len(a), len(b), "LCS length:", len(s))
print("LCS head:", s[:60])
print("LCS tail:", s[-60:])
for x, y in [("AGGTAB", "GXTXAYB"), ("ABCBDAB", "BDCABA"), ("dynamic", "programming")]:
    r = lcs(x, y)
    print(f"lcs({x}, {y}) = {r!r} ({len(r)})")

def lis(seq):
    import bisect
    tails = []
    for v in seq:
        k = bisect.bisect_left(tails, v)
        tails[k:k + 1] = [v]
    return len(tails)
print("LIS of random perm:", lis(random.sample(range(100000), 20000)))
