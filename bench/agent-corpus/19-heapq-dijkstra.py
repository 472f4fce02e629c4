import heapq
import random

random.seed(1919)
W, H = 90, 90
grid = [[random.choice([1, 1, 1, 2, 3, 9]) for _ in range(W)] for _ in range(H)]

def dijkstra(src, dst):
    dist, prev, pq = {src: 0}, {}, [(0, src)]
    while pq:
        d, (r, c) = heapq.heappop(pq)
        if (r, c) == dst: break
        if d > dist[(r, c)]: continue
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < H and 0 <= nc < W:
                nd = d + grid[nr][nc]
                if nd < dist.get((nr, nc), 1 << 60):
                    dist[(nr, nc)] = nd
                    prev[(nr, nc)] = (r, c)
                    heapq.heappush(pq, (nd, (nr, nc)))
    path, node = [], dst
    while node != src:
        path.append(node)
        node = prev[node]
    return dist[dst], len(path), len(dist)

print("shortest cost, path len, settled:", dijkstra((0, 0), (H - 1, W - 1)))
print("diag cost:", dijkstra((0, W - 1), (H - 1, 0)))
tasks = [(random.randint(1, 100), f"job{i}") for i in range(5000)]
print("3 smallest:", heapq.nsmallest(3, tasks), "3 largest:", heapq.nlargest(3, tasks))
workers = [(0, w) for w in range(4)]
heapq.heapify(workers)
for dur, name in tasks[:2000]:
    t, w = heapq.heappop(workers)
    heapq.heappush(workers, (t + dur, w))
print("makespan:", max(workers)[0], "loads:", sorted(workers))
merged = list(heapq.merge(range(0, 30, 3), range(1, 30, 5), range(2, 30, 7)))
print("merged:", merged)
