import yaml

config_text = """
service: checkout
replicas: 3
env:
  - name: LOG_LEVEL
    value: info
  - name: TIMEOUT
    value: "30"
limits: {cpu: "500m", memory: 256Mi}
routes:
""" + "".join(f"  - path: /api/v{i % 3}/item{i}\n    weight: {i % 7}\n" for i in range(400))
config = yaml.safe_load(config_text)
print(config["service"], config["replicas"], len(config["routes"]), config["limits"])
config["replicas"] += 2
config["env"].append({"name": "REGION", "value": "eu-west"})
heavy = [r for r in config["routes"] if r["weight"] >= 5]
print("heavy routes:", len(heavy), heavy[:2])
out = yaml.safe_dump({k: config[k] for k in ("service", "replicas", "env", "limits")}, sort_keys=True)
print(out, end="")
docs = list(yaml.safe_load_all("a: 1\n---\nb: [1, 2]\n---\n- x\n- y\n"))
print(docs)
