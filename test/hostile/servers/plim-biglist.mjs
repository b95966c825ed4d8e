// A hostile MCP upstream (no SDK, raw JSON-RPC) that answers `initialize` normally and
// `tools/list` with one enormous page: PLIM_LIST_BYTES bytes (default 50 MB) of tool descriptions,
// written in 1 MiB pieces with backpressure, so it never holds the whole answer itself.
// Every tools/list it answers is counted on stderr ("plim-biglist: tools/list #N").
// stdio by default; `--http PORT_FILE` serves streamable HTTP on 127.0.0.1 (a free port, written to
// PORT_FILE) and answers POSTs the same way (application/json).
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';

const TOTAL = Number(process.env.PLIM_LIST_BYTES ?? 50 * 1024 * 1024);
const PIECE = 1024 * 1024;
let lists = 0;

function initResult(id, params) {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    result: {
      protocolVersion: params?.protocolVersion ?? '2025-11-25',
      capabilities: { tools: {} },
      serverInfo: { name: 'plim-biglist', version: '0.0.1' },
    },
  });
}

/** Write the huge tools/list answer to `out` (a writable), then `end` (a newline, or ''). */
async function writeBigList(out, id, end) {
  lists++;
  process.stderr.write(`plim-biglist: tools/list #${lists}\n`);
  const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"tools":[{"name":"big","inputSchema":{"type":"object"},"description":"`;
  const tail = `"}]}}${end}`;
  const filler = 'x'.repeat(PIECE);
  // the reader may stop reading (and close) at any point: a write that does not drain within 5 s ends it
  const write = (s) =>
    out.write(s)
      ? Promise.resolve(!out.destroyed)
      : new Promise((r) => {
          const t = setTimeout(() => r(false), 5000);
          out.once('drain', () => (clearTimeout(t), r(!out.destroyed)));
        });
  if (!(await write(head))) return;
  for (let sent = 0; sent < TOTAL; sent += PIECE) {
    if (out.destroyed || out.writableEnded) return;
    if (!(await write(filler.slice(0, Math.min(PIECE, TOTAL - sent))))) return;
  }
  out.write(tail);
}

function reply(msg, send) {
  if (msg.method === 'initialize') return send(initResult(msg.id, msg.params));
  if (msg.method === 'ping') return send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} }));
  if (msg.id !== undefined && msg.method !== 'tools/list') {
    send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } }));
  }
}

if (process.argv[2] === '--http') {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let msg;
      try {
        msg = JSON.parse(body);
      } catch {
        return void res.writeHead(400).end();
      }
      if (msg.method === 'tools/list') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        void writeBigList(res, msg.id, '').then(() => res.end());
        return;
      }
      if (msg.id === undefined) return void res.writeHead(202).end();
      reply(msg, (text) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(text);
      });
    });
  });
  server.listen(0, '127.0.0.1', () => writeFileSync(process.argv[3], String(server.address().port)));
} else {
  let buf = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (d) => {
    buf += d;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      let msg;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      if (msg.method === 'tools/list') void writeBigList(process.stdout, msg.id, '\n');
      else reply(msg, (text) => process.stdout.write(text + '\n'));
    }
  });
  process.stdin.on('end', () => process.exit(0));
  process.stdout.on('error', () => process.exit(0));
}
