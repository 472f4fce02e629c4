# Tables: write CSV, read it back, group and total, print a report.
import csv, io, collections, statistics
buffer = io.StringIO()
writer = csv.writer(buffer)
writer.writerow(["city", "month", "rain_mm"])
for i in range(600):
    writer.writerow([["Lyon", "Oslo", "Lima", "Pune"][i % 4], 1 + i % 12, (i * 37) % 91 / 3])
by_city = collections.defaultdict(list)
for row in csv.DictReader(io.StringIO(buffer.getvalue())):
    by_city[row["city"]].append(float(row["rain_mm"]))
for city, values in sorted(by_city.items()):
    print(f"{city:<6} n={len(values):3d} mean={statistics.mean(values):7.2f} "
          f"median={statistics.median(values):6.2f} stdev={statistics.stdev(values):6.2f}")
