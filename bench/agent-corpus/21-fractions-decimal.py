from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, getcontext, localcontext
from fractions import Fraction

h = Fraction(0)
for k in range(1, 301):
    h += Fraction(1, k)
print("H(300) numerator digits:", len(str(h.numerator)), "approx:", f"{float(h):.12f}")
print("sum 1/2^k:", sum(Fraction(1, 2 ** k) for k in range(1, 21)))
print("limit_denominator(pi):", Fraction(3.141592653589793).limit_denominator(1000))
print("Fraction arithmetic:", Fraction(3, 4) * Fraction(8, 9) - Fraction(1, 6), Fraction("2.75") ** 2)

getcontext().prec = 50
print("sqrt(2):", Decimal(2).sqrt())
print("1/7:", Decimal(1) / Decimal(7))
e = Decimal(0)
term = Decimal(1)
for k in range(1, 60):
    e += term
    term /= k
print("e:", e)
with localcontext() as ctx:
    ctx.prec = 10
    print("pi-ish:", Decimal(355) / Decimal(113))
prices = [Decimal("19.99"), Decimal("0.015"), Decimal("2.675"), Decimal("1.005")]
for p in prices:
    print(p, "->", p.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), p.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))
bal = Decimal("1000.00")
for month in range(360):
    bal = (bal * (1 + Decimal("0.045") / 12)).quantize(Decimal("0.01"))
print("compound 30y:", bal)
print("float vs decimal:", 0.1 + 0.2, Decimal("0.1") + Decimal("0.2"))
