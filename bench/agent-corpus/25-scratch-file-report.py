import csv
import json
import os
import random
import tempfile

random.seed(2525)
regions = ["north", "south", "east", "west"]
with tempfile.TemporaryDirectory() as work:
    os.chdir(work)
    with open("orders.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["order", "region", "qty", "price"])
        for i in range(6000):
            writer.writerow([i, random.choice(regions), random.randint(1, 9), round(random.uniform(2, 80), 2)])
    os.makedirs("reports/by-region", exist_ok=True)
    totals = {}
    with open("orders.csv", newline="") as f:
        for row in csv.DictReader(f):
            t = totals.setdefault(row["region"], {"orders": 0, "revenue": 0.0})
            t["orders"] += 1
            t["revenue"] += int(row["qty"]) * float(row["price"])
    for region, t in totals.items():
        with open(os.path.join("reports/by-region", region + ".json"), "w") as f:
            json.dump({"region": region, "orders": t["orders"], "revenue": round(t["revenue"], 2)}, f)
    with open("reports/summary.txt", "w") as f:
        for region in sorted(totals):
            f.write(f"{region:>6} {totals[region]['orders']:5d} {totals[region]['revenue']:12.2f}\n")
    print(sorted(os.listdir("reports/by-region")))
    print(os.path.getsize("orders.csv") > 50000, os.path.getsize("reports/summary.txt"))
    with open("reports/summary.txt") as f:
        print(f.read(), end="")
    best = max(totals, key=lambda r: totals[r]["revenue"])
    with open(f"reports/by-region/{best}.json") as f:
        print("best:", json.load(f))
    os.chdir("/")
