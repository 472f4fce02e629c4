#!/usr/bin/env node
// Records what real Node prints for every case in console-cases.js, into console-cases.recorded.json, which
// NodeConsoleFormatTest compares the guest console against.
//
//   node src/test/resources/javascript/record-console-cases.js
//
// Each case runs in a fresh `node -e` process with stdout and stderr piped (not a terminal, so no colours),
// the way the guest's output is captured. Re-record with Node 20 (the recorded file was made with v20).
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const cases = require('./console-cases.js');
const target = path.join(__dirname, 'console-cases.recorded.json');

function record(testCase) {
  const run = spawnSync(process.execPath, ['-e', testCase.code], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (run.status !== 0) {
    throw new Error(`case "${testCase.name}" exited with ${run.status}:\n${run.stderr}`);
  }
  for (const [stream, pattern] of [['stdout', testCase.stdoutPattern], ['stderr', testCase.stderrPattern]]) {
    if (pattern !== undefined && !new RegExp(pattern).test(run[stream])) {
      throw new Error(`case "${testCase.name}": Node's ${stream} does not match ${pattern}:\n${run[stream]}`);
    }
  }
  return { ...testCase, stdout: run.stdout, stderr: run.stderr };
}

const names = new Set();
for (const { name } of cases) {
  if (names.has(name)) throw new Error(`two cases are named "${name}"`);
  names.add(name);
}
const recorded = cases.map(record);
fs.writeFileSync(target, `${JSON.stringify(recorded, null, 2)}\n`);
console.log(`recorded ${recorded.length} cases with Node ${process.version} into ${path.relative(process.cwd(), target)}`);
