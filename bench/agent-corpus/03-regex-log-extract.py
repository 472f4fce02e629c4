import random
import re
from collections import Counter

random.seed(303)
methods = ["GET", "POST", "PUT", "DELETE"]
paths = ["/api/users", "/api/orders", "/login", "/static/app.js", "/api/items/42", "/health"]
lines = []
for i in range(20000):
    ip = ".".join(str(random.randint(1, 254)) for _ in range(4))
    ts = f"2024-05-{1 + i % 30:02d}T{i % 24:02d}:{i % 60:02d}:{(i * 7) % 60:02d}Z"
    status = random.choice([200, 200, 200, 201, 204, 301, 404, 500, 503])
    ms = random.randint(1, 2500)
    lines.append(f'{ip} - - [{ts}] "{random.choice(methods)} {random.choice(paths)} HTTP/1.1" {status} {ms}ms')
log = "\n".join(lines)

pattern = re.compile(r'(?P<ip>\d+\.\d+\.\d+\.\d+) - - \[(?P<ts>[^\]]+)\] '
                     r'"(?P<method>[A-Z]+) (?P<path>\S+) HTTP/1\.1" (?P<status>\d{3}) (?P<ms>\d+)ms')
status_counts = Counter()
slow = Counter()
for m in pattern.finditer(log):
    status_counts[m.group("status")] += 1
    if int(m.group("ms")) > 2000:
        slow[m["path"]] += 1
print("status codes:", sorted(status_counts.items()))
print("slow paths:", slow.most_common(3))

errors = re.findall(r'"(\w+) (\S+) HTTP/1\.1" 5\d\d', log)
print("5xx requests:", len(errors), "first:", errors[:3])
masked = re.sub(r"\b(\d+)\.(\d+)\.\d+\.\d+\b", r"\1.\2.x.x", "\n".join(lines[:5]))
print(masked)
hours = Counter(re.findall(r"T(\d\d):", log))
print("busiest hours:", hours.most_common(4))
