rows = []
for i in range(1, 13):
    cells = [f"{i * j:>4}" for j in range(1, 13)]
    rows.append("".join(cells))
print("\n".join(rows[:4]))
print("...")
s = ", ".join(str(n) for n in range(1, 21))
print(s)
parts = []
for word in "the quick brown fox jumps over the lazy dog".split():
    parts.append(word.capitalize() if len(word) > 3 else word.upper())
print(" ".join(parts))
print("snake_case ->", "_".join(w.lower() for w in "ParseHttpResponseHeader".replace("H", " H").replace("R", " R").split()))
print("|".join(c.center(7, ".") for c in ["id", "name", "qty"]))
print("reversed words:", " ".join(reversed("one two three four".split())))
print("title:", "hello world from the sandbox".title(), "| swap:", "MiXeD".swapcase())
print("zfill/ljust:", "42".zfill(6), "ab".ljust(5, "-") + "|", "x".rjust(4, "*"))
print("partition:", "key=value=more".partition("="), "rsplit:", "a.b.c.d".rsplit(".", 2))
print(str.maketrans("abc", "xyz") == {97: 120, 98: 121, 99: 122}, "banana".translate(str.maketrans("an", "AN")))
print("count/find:", "mississippi".count("ss"), "mississippi".find("ppi"), "mississippi".rindex("s"))
