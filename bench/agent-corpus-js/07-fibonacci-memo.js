const memo = new Map();
function fib(n) {
  if (n < 2) return BigInt(n);
  if (memo.has(n)) return memo.get(n);
  const v = fib(n - 1) + fib(n - 2);
  memo.set(n, v);
  return v;
}
console.log(fib(90).toString());
console.log(fib(300).toString().length, 'digits');
function fibSlow(n) { return n < 2 ? n : fibSlow(n - 1) + fibSlow(n - 2); }
console.log(fibSlow(24));
