const csv = `name,city,joined\n"Smith, Ann",Oslo,2021-04-03\nBo Li,Lyon,2019-11-20\n"O'Hara, Sean",Cork,2023-01-09`;
function parseCsv(text) {
  const rows = [];
  for (const line of text.split('\n')) {
    const cells = [];
    let cur = '', quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (ch === ',' && !quoted) { cells.push(cur); cur = ''; }
      else cur += ch;
    }
    cells.push(cur);
    rows.push(cells);
  }
  const [head, ...body] = rows;
  return body.map(r => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}
const people = parseCsv(csv);
console.log(people);
const wrap = (text, width) => text.split(' ').reduce((lines, word) => {
  const last = lines[lines.length - 1];
  if ((last + ' ' + word).trim().length > width) lines.push(word); else lines[lines.length - 1] = (last + ' ' + word).trim();
  return lines;
}, ['']);
console.log(wrap('The sandbox runs untrusted code for agents, in locked-down workers, with no network and no host files.', 28).join('\n'));
