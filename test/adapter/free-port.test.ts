/**
 * freePort never hands out the same port twice in one process, nor one kept with reservePort (an HTTP
 * fixture the gate restarts on its port). Linux gives a just-released port to
 * the next listen(0) often (72 repeats in 1,000 plain bind-and-release calls on this machine), and two
 * parallel gate cells once got the same one: a network cell's proxy found its port taken by the other
 * cell's toxiproxy listener while it was starting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { freePort, reservePort } from '../../pipeline/adapter/index.ts';

test('freePort: 1,000 calls, 1,000 different ports, each one free to bind', async () => {
  const ports: number[] = [];
  for (let i = 0; i < 1000; i++) ports.push(await freePort());
  assert.equal(new Set(ports).size, ports.length, 'a port was handed out twice');
  for (const p of ports) assert.ok(Number.isInteger(p) && p > 0 && p < 65536, String(p));
  // the last one is really free: it binds
  await new Promise<void>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(ports[ports.length - 1], '127.0.0.1', () => s.close(() => resolve()));
  });
});

test('freePort never hands out a port reserved with reservePort (an HTTP fixture restarted on its port)', async () => {
  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const s = createServer();
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve(s));
    });
  const s = await listen(0);
  const kept = (s.address() as AddressInfo).port;
  reservePort(kept);
  // the fixture is down: its port is free again; the kernel may offer it next, as it does here first
  await new Promise<void>((r) => s.close(() => r()));
  const offers = [kept, 0];
  const got = await freePort(() => listen(offers.shift() ?? 0));
  assert.notEqual(got, kept, `freePort handed out the reserved port ${kept}`);
  assert.equal(offers.length, 0, 'the reserved port was offered and passed over');
});
