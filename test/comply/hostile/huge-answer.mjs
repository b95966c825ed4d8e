// Hostile stdio server: answers the first request with one 50 MB JSON-RPC line.
let sent = false;
process.stdin.on('data', (d) => {
  if (sent) return;
  sent = true;
  const m = /"id":\s*(\d+)/.exec(d.toString());
  const id = m ? m[1] : 'null';
  const pad = 'a'.repeat(1024 * 1024);
  process.stdout.write(`{"jsonrpc":"2.0","id":${id},"result":{"pad":"`);
  let i = 0;
  const more = () => {
    while (i < 50) {
      i++;
      if (!process.stdout.write(pad)) return process.stdout.once('drain', more);
    }
    process.stdout.write('"}}\n');
  };
  more();
});
process.stdin.on('end', () => process.exit(0));
