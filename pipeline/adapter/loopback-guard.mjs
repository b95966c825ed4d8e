// Preload (`node --import <this file> …`) for third-party servers that listen on every interface
// and have no flag to choose one (supergateway): any TCP listen without a host, or on a wildcard
// address, binds 127.0.0.1 instead. Loopback only is a ground rule of mcpgauge.
import net from 'node:net';

const WILDCARD = new Set(['', '0.0.0.0', '::', '::0', '[::]']);
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function guardedListen(...args) {
  const a = args[0];
  if (a !== null && typeof a === 'object' && !Array.isArray(a) && (a.port !== undefined || a.host !== undefined) && a.path === undefined) {
    if (a.host === undefined || WILDCARD.has(a.host)) args[0] = { ...a, host: '127.0.0.1' };
  } else if (typeof a === 'number' || (typeof a === 'string' && /^\d+$/.test(a))) {
    if (typeof args[1] !== 'string' || WILDCARD.has(args[1])) {
      if (typeof args[1] === 'string') args[1] = '127.0.0.1';
      else args.splice(1, 0, '127.0.0.1');
    }
  }
  return listen.apply(this, args);
};
