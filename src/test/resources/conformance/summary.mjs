// Summarizes one run of the MCP conformance suite (`conformance server ... -o DIR`) as a table, one line per
// scenario, judged against the expected-failures baseline the same way the suite judges it (a WARNING counts as
// a failure; a baseline entry that now passes is stale). bin/conformance copies this file next to the installed
// suite, so that `yaml` (pinned by package-lock.json) resolves.
//
//   node summary.mjs RESULTS_DIR [--baseline FILE] [--require a,b,c] [--label TEXT] [--informational]
//
// --require names scenarios that must have run and passed with at least one successful check (a scenario the
// suite skipped would otherwise go unnoticed). Exits 1 on an unexpected failure, a stale baseline entry or a
// required scenario that did not pass; prints the table either way. --informational: failures are only
// counted (verdict "fail"), never listed, and the exit code is 0.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, basename } from 'node:path';
import YAML from 'yaml';

const args = process.argv.slice(2);
const dir = args[0];
let baselineFile;
let required = [];
let label = '';
let informational = false;
for (let i = 1; i < args.length; i += 2) {
  if (args[i] === '--informational') {
    informational = true;
    i -= 1;
  } else if (args[i] === '--baseline') baselineFile = args[i + 1];
  else if (args[i] === '--require') required = args[i + 1].split(',').filter(Boolean);
  else if (args[i] === '--label') label = args[i + 1];
  else throw new Error(`unknown argument ${args[i]}`);
}

// The suite names each result folder server-<scenario>-<ISO time with : and . replaced by ->.
function scenarioOf(folder) {
  return basename(folder).replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
}

function checksFiles(root) {
  const found = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (statSync(path).isDirectory()) found.push(...checksFiles(path));
    else if (name === 'checks.json') found.push(path);
  }
  return found;
}

const whole = new Set();
const byCheck = new Map();
if (baselineFile) {
  const parsed = YAML.parse(readFileSync(baselineFile, 'utf8')) ?? {};
  for (const entry of parsed.server ?? []) {
    const text = String(entry);
    const colon = text.indexOf(':');
    if (colon < 0) whole.add(text);
    else {
      const scenario = text.slice(0, colon);
      if (!byCheck.has(scenario)) byCheck.set(scenario, new Set());
      byCheck.get(scenario).add(text.slice(colon + 1));
    }
  }
}

const bad = (check) => check.status === 'FAILURE' || check.status === 'WARNING';
const rows = [];
for (const file of checksFiles(dir)) {
  const scenario = scenarioOf(join(file, '..'));
  const checks = JSON.parse(readFileSync(file, 'utf8'));
  const count = (status) => checks.filter((c) => c.status === status).length;
  const failing = checks.filter(bad);
  let verdict;
  if (whole.has(scenario)) verdict = failing.length > 0 ? 'expected-fail' : 'STALE';
  else if (byCheck.has(scenario)) {
    const listed = byCheck.get(scenario);
    const unlisted = failing.filter((c) => !listed.has(c.id));
    const passingListed = checks.filter((c) => listed.has(c.id) && c.status === 'SUCCESS');
    verdict = unlisted.length > 0 ? 'UNEXPECTED' : passingListed.length > 0 ? 'STALE' : 'expected-fail';
  } else if (failing.length > 0) verdict = informational ? 'fail' : 'UNEXPECTED';
  // Only INFO checks: the scenario found nothing to test (server-session-lifecycle on a stateless server).
  else verdict = count('SUCCESS') > 0 ? 'pass' : 'n/a';
  rows.push({
    scenario, verdict, passed: count('SUCCESS'), failed: count('FAILURE'), warnings: count('WARNING'), info: count('INFO'),
    failing: failing.map((c) => `${c.id}${c.errorMessage ? ': ' + c.errorMessage.split('\n')[0].slice(0, 160) : ''}`),
  });
}
rows.sort((a, b) => a.scenario.localeCompare(b.scenario));

const problems = [];
for (const name of required) {
  const row = rows.find((r) => r.scenario === name);
  if (!row) problems.push(`${name}: required, but it did not run`);
  else if (row.verdict !== 'pass') problems.push(`${name}: required to pass, got ${row.verdict}`);
}
for (const row of rows) {
  if (row.verdict === 'UNEXPECTED') problems.push(`${row.scenario}: unexpected failure: ${row.failing.join('; ')}`);
  if (row.verdict === 'STALE') problems.push(`${row.scenario}: in the baseline but passes now (remove it)`);
}

const width = Math.max(8, ...rows.map((r) => r.scenario.length));
console.log(`\n${label ? label + ': ' : ''}${rows.length} scenarios`);
console.log(`  ${'scenario'.padEnd(width)}  result         pass  fail  warn  info`);
for (const r of rows) {
  console.log(`  ${r.scenario.padEnd(width)}  ${r.verdict.padEnd(13)}  ${String(r.passed).padStart(4)}  ${String(r.failed).padStart(4)}  ${String(r.warnings).padStart(4)}  ${String(r.info).padStart(4)}`);
}
const tally = (v) => rows.filter((r) => r.verdict === v).length;
if (informational) {
  console.log(`  passed ${tally('pass')}, failed ${tally('fail')}, not applicable ${tally('n/a')} (informational)`);
  process.exit(0);
}
console.log(`  passed ${tally('pass')}, not applicable ${tally('n/a')}, expected failures ${tally('expected-fail')}, unexpected ${tally('UNEXPECTED')}, stale ${tally('STALE')}`);
if (problems.length > 0) {
  for (const p of problems) console.log(`  PROBLEM ${p}`);
  process.exit(1);
}
