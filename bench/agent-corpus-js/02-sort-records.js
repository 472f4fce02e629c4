const orders = [];
let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (let i = 0; i < 2000; i++) {
  orders.push({ id: i, customer: 'c' + Math.floor(rand() * 50), amount: Math.round(rand() * 100000) / 100, day: 1 + Math.floor(rand() * 28) });
}
orders.sort((a, b) => b.amount - a.amount || a.id - b.id);
console.log('top 5:');
for (const o of orders.slice(0, 5)) console.log(`${o.id}\t${o.customer}\t${o.amount.toFixed(2)}`);
const byCustomer = new Map();
for (const o of orders) byCustomer.set(o.customer, (byCustomer.get(o.customer) ?? 0) + o.amount);
const ranked = [...byCustomer].sort((a, b) => b[1] - a[1]).slice(0, 3);
console.log(ranked.map(([c, t]) => `${c}=${t.toFixed(2)}`).join(', '));
