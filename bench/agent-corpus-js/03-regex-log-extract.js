const lines = [];
const levels = ['INFO', 'WARN', 'ERROR', 'DEBUG'];
for (let i = 0; i < 500; i++) {
  const level = levels[(i * 7) % 4];
  lines.push(`2026-03-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:15:00Z [${level}] service=api-${i % 5} latency=${(i * 37) % 900}ms path=/v1/items/${i}`);
}
const pattern = /^(\S+) \[(\w+)\] service=(\S+) latency=(\d+)ms path=(\S+)$/;
const counts = {};
let slow = 0;
for (const line of lines) {
  const m = pattern.exec(line);
  if (!m) continue;
  const [, , level, service, latency] = m;
  counts[level] = (counts[level] || 0) + 1;
  if (Number(latency) > 800 && level === 'ERROR') slow++;
}
console.log(counts);
console.log('slow errors:', slow);
const emails = 'Contact ada@example.com, grace@navy.mil or nobody@invalid'.match(/[\w.]+@[\w.]+\.\w+/g);
console.log(emails);
