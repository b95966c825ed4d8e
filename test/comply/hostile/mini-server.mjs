// A tiny 2025-11-25 stdio server for the hostile cases (our own code, no SDK): `answer(msg)`
// returns the reply for one request; MINI_MODE bends it (ids with another type, exit after
// initialize, a notification flood, every answer pretty-printed over several lines after a run of
// closing lines that never make a message).
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'plain';
const write = (m) => process.stdout.write(`${JSON.stringify(m)}\n`);

function answer(msg) {
  const id = mode === 'string-ids' ? String(msg.id) : msg.id;
  switch (msg.method) {
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id,
        result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: `hostile-${mode}`, version: '0.0.1' } },
      };
    case 'ping':
      return { jsonrpc: '2.0', id, result: {} };
    case 'tools/list':
      return {
        jsonrpc: '2.0',
        id,
        result: {
          tools: [
            {
              name: 'echo',
              description: 'Echo the text',
              inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
            },
          ],
        },
      };
    case 'tools/call':
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: String(msg.params?.arguments?.text ?? '') }] } };
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${msg.method}` } };
  }
}

if (mode === 'flood') {
  // unasked notifications, as fast as the pipe takes them
  let n = 0;
  const pump = () => {
    for (let i = 0; i < 200; i++)
      write({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `tick ${n++}` } });
    if (n < 400_000) setImmediate(pump);
  };
  pump();
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg) || msg.id === undefined || typeof msg.method !== 'string') return;
  if (mode === 'exit-after-initialize' && msg.method === 'initialize') {
    process.stdout.write(`${JSON.stringify(answer(msg))}\n`, () => process.exit(0));
    return;
  }
  if (mode === 'pretty') {
    // 20,000 lines that each look like the end of a message, then the answer over several lines
    process.stdout.write(`[\n${']x\n'.repeat(20_000)}${JSON.stringify(answer(msg), null, 2)}\n`);
    return;
  }
  write(answer(msg));
});
process.stdin.on('end', () => process.exit(0));
