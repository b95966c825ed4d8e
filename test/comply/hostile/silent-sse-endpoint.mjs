// Hostile HTTP+SSE server: GET /sse opens a stream whose first event names the POST endpoint,
// then sends keep-alive comments forever; every POST is acknowledged 202 and never answered on
// the stream. POST /sse is 405 (so the prober looks for the legacy transport). Prints its port on
// stderr. Loopback only.
import { createServer } from 'node:http';
const timers = new Set();
const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  req.resume();
  if (req.method === 'GET' && path === '/sse') {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write('event: endpoint\ndata: /message?sessionId=hostile\n\n');
    const t = setInterval(() => res.write(': keep-alive\n\n'), 50);
    timers.add(t);
    res.on('close', () => {
      clearInterval(t);
      timers.delete(t);
    });
    return;
  }
  if (req.method === 'POST' && path === '/message') return void res.writeHead(202).end('Accepted');
  res.writeHead(405, { Allow: 'GET' }).end();
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`port ${server.address().port}\n`));
process.on('SIGTERM', () => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
