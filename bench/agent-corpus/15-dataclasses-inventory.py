import json
import random
from dataclasses import asdict, dataclass, field, replace

@dataclass(order=True)
class Item:
    sort_key: tuple = field(init=False, repr=False)
    category: str
    name: str
    price_cents: int
    qty: int = 0
    tags: list = field(default_factory=list)

    def __post_init__(self):
        self.sort_key = (self.category, -self.price_cents, self.name)

    @property
    def value(self):
        return self.price_cents * self.qty

random.seed(1515)
cats = ["tools", "garden", "kitchen", "toys"]
inv = [Item(random.choice(cats), f"sku-{i:05d}", random.randint(100, 99999), random.randint(0, 50),
            random.sample(["new", "sale", "eco", "bulk"], random.randint(0, 2))) for i in range(15000)]
inv.sort()
print(inv[0])
print(inv[-1])
print("low stock:", sum(1 for it in inv if it.qty < 3))
totals = {}
for it in inv:
    totals[it.category] = totals.get(it.category, 0) + it.value
for c in sorted(totals):
    print(f"{c:<8} {totals[c] / 100:>14,.2f}")
top = sorted(inv, key=lambda it: it.value, reverse=True)[:3]
print(json.dumps([{k: v for k, v in asdict(t).items() if k != "sort_key"} for t in top], indent=1))
discounted = replace(top[0], price_cents=top[0].price_cents * 9 // 10)
print("discounted:", discounted.name, discounted.price_cents, discounted == top[0])
print("as dicts:", len([asdict(i) for i in inv[:3000]]))
