function levenshtein(a, b) {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
const pairs = [['kitten', 'sitting'], ['flaw', 'lawn'], ['intention', 'execution'], ['javascript', 'typescript']];
for (const [a, b] of pairs) console.log(`${a} -> ${b}: ${levenshtein(a, b)}`);
const words = ['apple', 'apply', 'ample', 'maple', 'applet', 'pale'];
console.log(words.map(w => [w, levenshtein('appel', w)]).sort((x, y) => x[1] - y[1]).slice(0, 3));
