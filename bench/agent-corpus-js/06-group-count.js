const words = 'it was the best of times it was the worst of times it was the age of wisdom it was the age of foolishness'.split(' ');
const freq = words.reduce((m, w) => m.set(w, (m.get(w) || 0) + 1), new Map());
const top = [...freq.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5);
console.log(top);
const grouped = Object.groupBy ? 'has groupBy' : 'no groupBy';
const byLength = {};
for (const w of new Set(words)) (byLength[w.length] ||= []).push(w);
console.log(byLength);
console.log(new Set(words).size, 'distinct of', words.length);
