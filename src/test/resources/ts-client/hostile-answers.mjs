// Hostile answers through the TypeScript SDK's client, whose stdio ReadBuffer refuses a message over 10 MB and
// then loses the connection: each call's answer must be read, and the next call must still succeed.
// Usage: node hostile-answers.mjs LAUNCHER [SERVER_FLAG ...]
// Prints one JSON line: {calls: [{name, ok, status?, bytes?, error?}, ...]}.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [launcher, ...flags] = process.argv.slice(2);
const transport = new StdioClientTransport({ command: launcher, args: flags, stderr: 'inherit' });
const client = new Client({ name: 'ts-hostile-answers', version: '1.0.0' });
await client.connect(transport);

// Every field guest code can fill, filled with control characters (six bytes each in JSON, seven in the text
// block): stdout and stderr below the flood limit, a result, files of text and names that fill the listing,
// and a 5 MB exception message.
const largest = String.raw`
import io, os, sys
sys.stdout.write('\x01' * 900_000)
sys.stderr.write('\x01' * 900_000)
sys.stderr = io.StringIO()  # the traceback of the message below would flood stderr and stop the call
result = '\x01"' * 500_000
folder = '/'.join(['\x01' * 200] * 10)
os.makedirs(folder)
for i in range(40):
    open(f'{folder}/{i:03}' + '\x02' * 200, 'w').write('\x01' * 60_000)
raise Exception('\x01' * 5_000_000)
`;
const calls = [
  ['six-megabyte-exception', "import sys, io\nsys.stderr = io.StringIO()\nraise Exception('y' * 6_000_000)"],
  ['largest-answer', largest],
  ['next-call', "print('still connected')"],
];
const outcome = [];
for (const [name, code] of calls) {
  try {
    const result = await client.callTool({ name: 'execute_code', arguments: { language: 'python', code, timeout: 60 } },
      undefined, { timeout: 240000 });
    outcome.push({ name, ok: true, status: result.structuredContent?.status, stdout: name === 'next-call'
      ? result.structuredContent?.stdout : undefined, bytes: JSON.stringify(result).length });
  } catch (error) {
    outcome.push({ name, ok: false, error: String(error?.message ?? error) });
  }
}
console.log(JSON.stringify({ calls: outcome }));
await client.close();
