function sieve(n) {
  const composite = new Uint8Array(n + 1);
  const primes = [];
  for (let i = 2; i <= n; i++) {
    if (composite[i]) continue;
    primes.push(i);
    for (let j = i * i; j <= n; j += i) composite[j] = 1;
  }
  return primes;
}
const primes = sieve(200000);
console.log(primes.length, primes.slice(-3));
const twins = primes.filter((p, i) => primes[i + 1] - p === 2).length;
console.log('twin pairs:', twins);
