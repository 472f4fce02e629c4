import csv
import io
import random
from collections import defaultdict

random.seed(101)
regions = ["north", "south", "east", "west", "central"]
products = ["widget", "gadget", "doohickey", "gizmo", "sprocket", "flange"]
lines = ["date,region,product,units,unit_price_cents"]
for i in range(30000):
    day = 1 + i % 28
    lines.append(f"2024-03-{day:02d},{random.choice(regions)},{random.choice(products)},"
                 f"{random.randint(1, 40)},{random.randint(99, 4999)}")
data = "\n".join(lines) + "\n"

totals = defaultdict(int)
units = defaultdict(int)
by_product = defaultdict(int)
rows = 0
for row in csv.DictReader(io.StringIO(data)):
    cents = int(row["units"]) * int(row["unit_price_cents"])
    totals[row["region"]] += cents
    units[row["region"]] += int(row["units"])
    by_product[(row["region"], row["product"])] += cents
    rows += 1

print(f"rows parsed: {rows}")
print(f"{'region':<10}{'units':>10}{'revenue':>16}{'avg/unit':>10}")
for region in sorted(totals, key=lambda r: -totals[r]):
    rev = totals[region]
    print(f"{region:<10}{units[region]:>10,}{rev / 100:>16,.2f}{rev / units[region] / 100:>10.2f}")
print("top product per region:")
for region in sorted(totals):
    best = max((p for p in products), key=lambda p: by_product[(region, p)])
    print(f"  {region}: {best} ({by_product[(region, best)] / 100:,.2f})")
