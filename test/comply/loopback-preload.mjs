// Preload for servers that listen on all interfaces (server-everything's Express app): binds
// every net server to 127.0.0.1 and reports the bound port on stderr as "[loopback] port N".
import net from 'node:net';
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const port = Number(args[0]);
    const cb = args.find((a) => typeof a === 'function');
    this.once('listening', () => process.stderr.write(`[loopback] port ${this.address().port}\n`));
    return listen.call(this, port, '127.0.0.1', cb);
  }
  return listen.apply(this, args);
};
