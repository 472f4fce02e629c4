# Algorithms: a graph search with a heap, binary search, memoised recursion and a sort.
import heapq, bisect, collections
graph = collections.defaultdict(list)
for a in range(300):
    for b in ((a * 7 + 3) % 300, (a * 11 + 5) % 300, (a + 1) % 300):
        graph[a].append((b, 1 + (a * b) % 9))
dist = {0: 0}
queue = [(0, 0)]
while queue:
    d, node = heapq.heappop(queue)
    if d > dist.get(node, 1 << 30):
        continue
    for nxt, w in graph[node]:
        if d + w < dist.get(nxt, 1 << 30):
            dist[nxt] = d + w
            heapq.heappush(queue, (d + w, nxt))
ordered = sorted(dist.values())
print(len(dist), ordered[-1], bisect.bisect_left(ordered, 20), heapq.nlargest(3, dist.items(), key=lambda kv: kv[1]))
def lcs(a, b):
    rows = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            rows[i + 1][j + 1] = rows[i][j] + 1 if x == y else max(rows[i][j + 1], rows[i + 1][j])
    return rows[-1][-1]
print(lcs("the quick brown fox jumps" * 3, "a quick brown dog jumped" * 3))
