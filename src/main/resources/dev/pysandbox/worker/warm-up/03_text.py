# Text: regular expressions, word counts, templates, wrapping and diffs.
import re, collections, string, textwrap, difflib
text = " ".join(f"Order #{i} shipped to user{i % 17}@example.org on 2026-0{1 + i % 9}-1{i % 10}" for i in range(500))
emails = re.findall(r"[\w.]+@[\w.]+\.\w+", text)
dates = re.findall(r"(\d{4})-(\d{2})-(\d{2})", text)
words = collections.Counter(w.lower() for w in re.split(r"\W+", text) if w)
template = string.Template("$n emails, $d dates, top words: $top")
print(template.substitute(n=len(emails), d=len(dates), top=words.most_common(3)))
print(textwrap.fill(text[:400], width=60))
print("\n".join(difflib.unified_diff(text[:200].split(), text[5:205].split(), lineterm="")))
print(re.sub(r"user(\d+)", lambda m: f"U{int(m.group(1)):03d}", text[:120]))
