const items = Array.from({ length: 60 }, (_, i) => ({ w: 3 + ((i * 17) % 23), v: 10 + ((i * 31) % 47) }));
const cap = 400;
const best = new Array(cap + 1).fill(0);
for (const { w, v } of items) {
  for (let c = cap; c >= w; c--) best[c] = Math.max(best[c], best[c - w] + v);
}
console.log('best value:', best[cap]);
console.log('first items:', items.slice(0, 3));
