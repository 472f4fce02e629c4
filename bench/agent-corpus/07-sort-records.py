import random
from operator import attrgetter, itemgetter

random.seed(707)
first = ["Ana", "Ben", "Chen", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivan", "Jo"]
depts = ["eng", "ops", "sales", "legal", "hr"]
people = [
    {"id": i, "name": random.choice(first) + " " + chr(65 + random.randint(0, 25)) + ".",
     "dept": random.choice(depts), "age": random.randint(21, 65), "salary": random.randint(400, 2000) * 100}
    for i in range(30000)
]
by_salary = sorted(people, key=itemgetter("salary"), reverse=True)
print("top earners:", [(p["id"], p["salary"]) for p in by_salary[:5]])
multi = sorted(people, key=itemgetter("dept", "age", "name"))
for p in multi[:4]:
    print(" ", p)
mixed = sorted(people, key=lambda p: (p["dept"], -p["salary"], p["id"]))
seen = set()
for p in mixed:
    if p["dept"] not in seen:
        seen.add(p["dept"])
        print(f"  highest in {p['dept']}: #{p['id']} {p['name']} {p['salary']}")
tuples = [(p["name"], p["age"]) for p in people]
tuples.sort(key=itemgetter(1))
tuples.sort(key=itemgetter(0))
print("stable two-pass:", tuples[:4])
print("median age index:", sorted(people, key=itemgetter("age"))[len(people) // 2]["age"])

class Row:
    __slots__ = ("k", "v")
    def __init__(self, k, v):
        self.k, self.v = k, v
rows = [Row(random.randint(0, 999), i) for i in range(20000)]
rows.sort(key=attrgetter("k", "v"))
print("attrgetter sort:", [(r.k, r.v) for r in rows[:3]], [(r.k, r.v) for r in rows[-2:]])
