import json
import random

random.seed(202)
tags_pool = ["urgent", "billing", "bug", "feature", "ui", "backend", "docs", "infra"]
records = []
for i in range(8000):
    records.append({
        "id": i,
        "user": {"name": f"user{random.randint(1, 500):03d}", "tier": random.choice(["free", "pro", "team"])},
        "tags": random.sample(tags_pool, random.randint(1, 3)),
        "score": round(random.random() * 100, 2),
        "open": random.random() < 0.35,
    })

blob = json.dumps(records)
print("serialized bytes:", len(blob))
loaded = json.loads(blob)
assert loaded == records

summary = {}
for rec in loaded:
    tier = rec["user"]["tier"]
    s = summary.setdefault(tier, {"count": 0, "open": 0, "tag_counts": {}, "max_score": 0.0})
    s["count"] += 1
    s["open"] += rec["open"]
    s["max_score"] = max(s["max_score"], rec["score"])
    for t in rec["tags"]:
        s["tag_counts"][t] = s["tag_counts"].get(t, 0) + 1

for tier in sorted(summary):
    print(tier, json.dumps(summary[tier], sort_keys=True))
print(json.dumps(summary["pro"]["tag_counts"], indent=2, sort_keys=True))
flat = [{"id": r["id"], "name": r["user"]["name"], "tags": ",".join(sorted(r["tags"]))}
        for r in loaded if r["open"] and r["score"] > 99]
print(json.dumps(flat[:5], separators=(",", ":")))
print("open & score>99:", len(flat))
