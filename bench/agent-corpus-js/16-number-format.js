const amounts = [0.1 + 0.2, 1234567.891, -42.5, 1e21, 5e-7, 2 ** 53 + 1];
for (const x of amounts) console.log(x, x.toFixed(2), x.toPrecision(4));
console.log((1234567.891).toLocaleString('en-US', { style: 'currency', currency: 'USD' }));
console.log(new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(98.76));
console.log(parseInt('0x1f'), parseFloat('3.14abc'), Number('  12 '), Math.round(2.5), Math.round(-2.5));
console.log([10, 1, 5, 100].sort(), [10, 1, 5, 100].sort((a, b) => a - b));
