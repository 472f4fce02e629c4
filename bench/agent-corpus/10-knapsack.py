import random

random.seed(1010)
n = 120
items = [(random.randint(1, 60), random.randint(5, 150)) for _ in range(n)]  # (weight, value)
capacity = 1500

dp = [[0] * (capacity + 1) for _ in range(n + 1)]
for i in range(1, n + 1):
    w, v = items[i - 1]
    row, prev = dp[i], dp[i - 1]
    for c in range(capacity + 1):
        best = prev[c]
        if w <= c and prev[c - w] + v > best:
            best = prev[c - w] + v
        row[c] = best

chosen = []
c = capacity
for i in range(n, 0, -1):
    if dp[i][c] != dp[i - 1][c]:
        chosen.append(i - 1)
        c -= items[i - 1][0]
chosen.reverse()
print("best value:", dp[n][capacity])
print("items chosen:", len(chosen), "weight used:", sum(items[i][0] for i in chosen))
print("first chosen:", chosen[:12])
ratio = sorted(range(n), key=lambda i: -items[i][1] / items[i][0])
greedy_v = greedy_w = 0
for i in ratio:
    if greedy_w + items[i][0] <= capacity:
        greedy_w += items[i][0]
        greedy_v += items[i][1]
print("greedy value:", greedy_v, "gap:", dp[n][capacity] - greedy_v)

coins = [1, 5, 10, 25, 50]
ways = [1] + [0] * 1000
for coin in coins:
    for a in range(coin, 1001):
        ways[a] += ways[a - coin]
print("ways to make 1000 cents:", ways[1000])
