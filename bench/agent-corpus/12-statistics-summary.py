import random
import statistics

random.seed(1212)
latencies = [round(random.gauss(120, 35), 3) for _ in range(20000)]
latencies += [round(400 + 500 * random.random(), 3) for _ in range(300)]
ints = [random.randint(1, 20) for _ in range(5000)]

print("n:", len(latencies))
print("mean:", round(statistics.mean(latencies), 6))
print("median:", statistics.median(latencies))
print("median_low/high:", statistics.median_low(latencies), statistics.median_high(latencies))
print("stdev:", round(statistics.stdev(latencies), 6))
print("pstdev:", round(statistics.pstdev(latencies), 6))
print("variance:", round(statistics.variance(latencies), 4))
print("quartiles:", [round(q, 4) for q in statistics.quantiles(latencies, n=4)])
deciles = statistics.quantiles(latencies, n=10, method="inclusive")
print("deciles:", [round(q, 2) for q in deciles])
print("p99:", round(statistics.quantiles(latencies, n=100)[98], 3))
print("mode of ints:", statistics.mode(ints), "multimode:", statistics.multimode([1, 1, 2, 2, 3]))
print("int mean/median:", statistics.mean(ints), statistics.median(ints))
print("harmonic/geometric:", round(statistics.harmonic_mean(ints), 6), round(statistics.geometric_mean(ints), 6))
buckets = {}
for v in latencies:
    b = min(int(v // 100) * 100, 800)
    buckets[b] = buckets.get(b, 0) + 1
for b in sorted(buckets):
    print(f"{b:>4}+ {buckets[b]:>6}")
