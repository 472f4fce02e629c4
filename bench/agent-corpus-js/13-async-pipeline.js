const fetchUser = id => new Promise(resolve => setTimeout(() => resolve({ id, name: 'user' + id, score: (id * 37) % 100 }), 5));
async function main() {
  const users = await Promise.all([1, 2, 3, 4, 5].map(fetchUser));
  const ranked = users.sort((a, b) => b.score - a.score).map(u => `${u.name}:${u.score}`);
  console.log(ranked.join(' '));
  for await (const n of (async function* () { for (let i = 0; i < 3; i++) yield i * i; })()) console.log('gen', n);
  return users.length;
}
main().then(n => console.log('done', n));
