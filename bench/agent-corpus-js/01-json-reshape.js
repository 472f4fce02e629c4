const raw = '[{"id":1,"name":"Ada","dept":"eng","salary":120000},{"id":2,"name":"Grace","dept":"eng","salary":135000},{"id":3,"name":"Linus","dept":"ops","salary":98000},{"id":4,"name":"Barbara","dept":"ops","salary":101000},{"id":5,"name":"Ken","dept":"research","salary":142000}]';
const people = JSON.parse(raw);
const byDept = {};
for (const p of people) {
  (byDept[p.dept] ??= []).push({ name: p.name, salary: p.salary });
}
const summary = Object.entries(byDept).map(([dept, members]) => ({
  dept,
  headcount: members.length,
  total: members.reduce((s, m) => s + m.salary, 0),
  names: members.map(m => m.name).sort(),
}));
console.log(JSON.stringify(summary, null, 2));
