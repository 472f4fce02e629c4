const rows = [['Item', 'Qty', 'Price'], ['Widget', 4, 3.5], ['Gadget', 12, 10.25], ['Doohickey', 1, 99.99]];
const widths = rows[0].map((_, c) => Math.max(...rows.map(r => String(r[c]).length)));
const line = '+' + widths.map(w => '-'.repeat(w + 2)).join('+') + '+';
console.log(line);
for (const [i, r] of rows.entries()) {
  console.log('| ' + r.map((v, c) => typeof v === 'number' ? String(v).padStart(widths[c]) : String(v).padEnd(widths[c])).join(' | ') + ' |');
  if (i === 0) console.log(line);
}
console.log(line);
const total = rows.slice(1).reduce((s, [, q, p]) => s + q * p, 0);
console.log(`Total: ${total.toFixed(2)}`);
console.log('word count:', 'the quick brown fox jumps over the lazy dog the end'.split(' ').reduce((m, w) => (m[w] = (m[w] || 0) + 1, m), {}));
