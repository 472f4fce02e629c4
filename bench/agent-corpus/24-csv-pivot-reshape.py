import csv
import io
import random
from collections import defaultdict
from itertools import groupby
from operator import itemgetter

random.seed(2424)
buf = io.StringIO()
w = csv.writer(buf)
w.writerow(["student", "subject", "term", "score"])
students = [f"s{i:03d}" for i in range(400)]
subjects = ["math", "physics", "history", "art", "biology"]
for s in students:
    for subj in subjects:
        for term in ("T1", "T2", "T3"):
            w.writerow([s, subj, term, random.randint(30, 100)])
w.writerow(["s999", "art, modern", "T1", 88])
text = buf.getvalue()
print("csv chars:", len(text), "lines:", text.count("\r\n"))

rows = list(csv.DictReader(io.StringIO(text)))
pivot = defaultdict(lambda: defaultdict(list))
for r in rows:
    pivot[r["subject"]][r["term"]].append(int(r["score"]))
print(f"{'subject':<12}" + "".join(f"{t:>8}" for t in ("T1", "T2", "T3")))
for subj in sorted(pivot):
    print(f"{subj:<12}" + "".join(f"{sum(v) / len(v):>8.2f}" for v in (pivot[subj][t] for t in ("T1", "T2", "T3")) if v)
          if len(pivot[subj]) == 3 else f"{subj:<12}{'(partial)':>8}")
keyed = sorted(((r["student"], int(r["score"])) for r in rows), key=itemgetter(0))
best = sorted(((s, sum(x for _, x in g)) for s, g in groupby(keyed, key=itemgetter(0))), key=lambda t: (-t[1], t[0]))
print("top students:", best[:5])
out = io.StringIO()
dw = csv.DictWriter(out, fieldnames=["student", "total", "grade"], lineterminator="\n")
dw.writeheader()
for s, tot in best[:4]:
    dw.writerow({"student": s, "total": tot, "grade": "A" if tot > 1200 else "B"})
print(out.getvalue(), end="")
