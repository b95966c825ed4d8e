// Hostile HTTP server: every POST is answered with a 50 MB application/json body. Loopback only.
import { createServer } from 'node:http';
const pad = Buffer.alloc(1024 * 1024, 0x61);
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write('{"jsonrpc":"2.0","id":1,"result":{"pad":"');
  let i = 0;
  const more = () => {
    while (i < 50) {
      i++;
      if (!res.write(pad)) return res.once('drain', more);
    }
    res.end('"}}');
  };
  res.on('close', () => {
    i = 50;
  });
  more();
});
server.listen(0, '127.0.0.1', () => process.stderr.write(`port ${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
