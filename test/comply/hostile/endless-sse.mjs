// Hostile HTTP server: every POST opens an SSE stream that sends keep-alive comments forever
// and never the response. Prints its port on stderr. Loopback only.
import { createServer } from 'node:http';
const timers = new Set();
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  const t = setInterval(() => res.write(': keep-alive\n\n'), 50);
  timers.add(t);
  res.on('close', () => {
    clearInterval(t);
    timers.delete(t);
  });
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`port ${server.address().port}\n`));
process.on('SIGTERM', () => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
