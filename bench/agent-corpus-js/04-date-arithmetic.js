const start = new Date(Date.UTC(2026, 0, 31));
const addMonths = (d, n) => {
  const r = new Date(d);
  const day = r.getUTCDate();
  r.setUTCDate(1);
  r.setUTCMonth(r.getUTCMonth() + n);
  const last = new Date(Date.UTC(r.getUTCFullYear(), r.getUTCMonth() + 1, 0)).getUTCDate();
  r.setUTCDate(Math.min(day, last));
  return r;
};
for (let i = 0; i < 6; i++) console.log(addMonths(start, i).toISOString().slice(0, 10));
const a = Date.UTC(2026, 2, 1), b = Date.UTC(2026, 11, 25);
console.log('days until:', Math.round((b - a) / 86400000));
const weekday = new Date(Date.UTC(2026, 6, 4)).getUTCDay();
console.log('weekday index', weekday);
console.log(new Date(Date.UTC(2024, 1, 29, 13, 5)).toISOString());
