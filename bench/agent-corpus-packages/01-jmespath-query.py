import jmespath
import random

random.seed(101)
services = ["auth", "billing", "search", "media"]
data = {"deployments": [
    {"service": random.choice(services), "region": random.choice(["eu", "us", "ap"]),
     "replicas": random.randint(1, 12), "healthy": random.random() > 0.2,
     "tags": {"tier": random.choice(["gold", "silver"]), "owner": f"team{random.randint(1, 6)}"}}
    for _ in range(3000)]}
unhealthy = jmespath.search("deployments[?healthy == `false`].service", data)
print("unhealthy:", len(unhealthy), sorted(set(unhealthy)))
big = jmespath.search("deployments[?replicas > `9`] | length(@)", data)
print("big deployments:", big)
expr = jmespath.compile("deployments[?tags.tier == 'gold'].{s: service, r: region, n: replicas}")
gold = expr.search(data)
by_region = {}
for item in gold:
    by_region[item["r"]] = by_region.get(item["r"], 0) + item["n"]
print("gold replicas by region:", dict(sorted(by_region.items())))
print(jmespath.search("max_by(deployments, &replicas).service", data))
