// One long execute_code call through the TypeScript SDK's client, as the inspector and many agents make it:
// a 5 s request timeout, and (with "with-progress") a progress handler with resetTimeoutOnProgress.
// Usage: node long-call.mjs LAUNCHER with-progress|without-progress [SERVER_FLAG ...]
// Prints one JSON line: {ok, stdout | error, code, progress: [...], seconds}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [launcher, mode, ...flags] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: launcher, args: flags, stderr: 'inherit' });
const client = new Client({ name: 'ts-long-call', version: '1.0.0' });
await client.connect(transport);
// The first call may wait for a cold worker on a loaded machine.
await client.callTool({ name: 'execute_code', arguments: { language: 'python', code: 'pass' } }, undefined,
  { timeout: 240000 });

const progress = [];
const options = { timeout: 5000 };
if (mode === 'with-progress') {
  options.resetTimeoutOnProgress = true;
  options.onprogress = (p) => progress.push(p.progress);
}
const started = Date.now();
let outcome;
try {
  const result = await client.callTool({
    name: 'execute_code',
    arguments: { language: 'python', code: "import time\ntime.sleep(15)\nprint('finished')", timeout: 60 },
  }, undefined, options);
  outcome = { ok: true, stdout: result.structuredContent?.stdout };
} catch (error) {
  outcome = { ok: false, error: String(error?.message ?? error), code: error?.code };
}
outcome.progress = progress;
outcome.seconds = (Date.now() - started) / 1000;
console.log(JSON.stringify(outcome));
await client.close();
