/**
 * security-tls-required end to end: an https fixture (a throw-away self-signed certificate for
 * 127.0.0.1) passes; the same fixture with FIXTURE_BREAK=tls-plain-too (plain HTTP served on the
 * https port too) fails it and changes no other verdict; the plain-http probe carries no credential
 * and no user header; a plain http loopback target is not_applicable; a plain http target on
 * another host fails.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer as createHttp } from 'node:http';
import { connect, createServer as createNet, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { comply, reportFromRecording, type Recording } from '../../pipeline/comply/comply.ts';
import { plainTwinUrl } from '../../pipeline/comply/gather/probes/security.ts';
import type { RunReport } from '../../pipeline/comply/types.ts';
import { startFixtureProcess } from '../../pipeline/fixture/launch.ts';
import { AUTH_MODE, AUTH_TOKEN, FEATURES, complyChild, httpRuns, tlsRuns } from './harness.ts';
import { TLS_SKIP, makeCert, tlsEnv, type TestCert } from './tls-cert.ts';

const ID = 'security-tls-required';
const SPECS = ['2025-11-25', '2026-07-28'] as const;
const CANARY = 'canary-secret-7d41e0b9';
/**
 * A front on a port of its own: TLS connections (first byte 0x16) pass through to the https
 * fixture untouched (TLS stays end to end), plain http ones get a 308 to `location(port)`:
 * a real TLS endpoint that redirects plain http, as a reverse proxy in front of a server does.
 */
async function redirectFront(tlsPort: number, location: (port: number) => string): Promise<{ url: string; close(): Promise<void> }> {
  const socks = new Set<Socket>();
  let port = 0;
  const plain = createHttp((_req, res) => {
    res.writeHead(308, { Location: location(port), 'Content-Length': '0' });
    res.end();
  });
  const front = createNet((sock) => {
    socks.add(sock);
    sock.on('close', () => socks.delete(sock));
    sock.on('error', () => sock.destroy());
    sock.once('readable', () => {
      const first = sock.read(1) as Buffer | null;
      if (!first) return void sock.destroy();
      sock.unshift(first);
      if (first[0] !== 0x16) return void plain.emit('connection', sock);
      const up = connect(tlsPort, '127.0.0.1');
      socks.add(up);
      up.on('error', () => sock.destroy());
      up.on('close', () => sock.destroy());
      sock.pipe(up).pipe(sock);
    });
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  port = (front.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/mcp`,
    close: () => {
      for (const s of socks) s.destroy();
      return new Promise((r) => front.close(() => r()));
    },
  };
}

const verdicts = (r: RunReport) => Object.fromEntries(r.results.map((x) => [x.id, x.status]));
const mine = (r: RunReport) => r.results.find((x) => x.id === ID)!;

describe('security-tls-required', { timeout: 300_000 }, () => {
  it('the plain-http twin of an https URL keeps host and port (443 written out) and drops the query', () => {
    assert.equal(plainTwinUrl('https://127.0.0.1:8443/mcp?key=x'), 'http://127.0.0.1:8443/mcp');
    assert.equal(plainTwinUrl('https://mcp.example.test/mcp'), 'http://mcp.example.test:443/mcp');
    assert.equal(plainTwinUrl('https://[::1]/mcp'), 'http://[::1]:443/mcp');
    assert.equal(plainTwinUrl('http://127.0.0.1:8080/mcp'), null);
  });

  describe('an https fixture, clean and with tls-plain-too', { skip: TLS_SKIP }, () => {
    let cert: TestCert;
    let clean: RunReport[];
    let broken: RunReport[];
    before(async () => {
      cert = makeCert();
      // auth mode, the token passed with --auth, and a user header holding a canary on every run:
      // the plain-http probe must carry neither
      const env = { ...FEATURES, ...AUTH_MODE, ...tlsEnv(cert) };
      const args = (rec: string) => (spec: string) => [
        '--auth',
        `Bearer ${AUTH_TOKEN}`,
        '-H',
        `X-Canary: ${CANARY}`,
        '--record',
        join(cert.dir, `${rec}-${spec}.json`),
      ];
      clean = await tlsRuns(SPECS, cert.cert, env, ['--stateless'], args('clean'));
      broken = await tlsRuns(SPECS, cert.cert, { ...env, FIXTURE_BREAK: 'tls-plain-too' }, ['--stateless'], args('broken'));
    });
    after(() => cert?.cleanup());

    it('clean https fixture: passes on both eras (plain http on its port is refused)', () => {
      assert.deepEqual(
        clean.map((r) => r.revision),
        [...SPECS],
      );
      for (const r of clean) assert.equal(mine(r).status, 'pass', `${r.revision}: ${mine(r).detail}`);
      for (const r of clean) assert.match(mine(r).detail, /refused/);
    });

    it('tls-plain-too: fails on both eras, and no other check changes verdict', () => {
      for (const r of broken) assert.equal(mine(r).status, 'fail', `${r.revision}: ${mine(r).detail}`);
      // auth mode: plain http answers the credential-free request with the 401 challenge
      for (const r of broken) assert.match(mine(r).detail, /HTTP 401/);
      for (const [i, r] of broken.entries()) {
        const before = verdicts(clean[i]);
        const after = verdicts(r);
        const changed = Object.keys(before)
          .filter((id) => id !== ID && before[id] !== after[id])
          .map((id) => `${id}: ${before[id]} -> ${after[id]}`);
        assert.deepEqual(changed, [], r.revision);
        assert.equal(Object.keys(after).length, Object.keys(before).length);
      }
    });

    it('the plain-http request carried no credential and no user header (the https requests did)', () => {
      for (const spec of SPECS) {
        const text = readFileSync(join(cert.dir, `broken-${spec}.json`), 'utf8');
        assert.ok(!text.includes(CANARY) && !text.includes(AUTH_TOKEN), `${spec}: the recording holds a secret`);
        const rec = JSON.parse(text) as Recording;
        const ex = rec.evidence[0].exchanges;
        const plain = ex.find((e) => e.probe === 'tls-plain');
        assert.ok(plain?.response, `${spec}: the plain-http probe got an answer from the broken fixture`);
        const names = Object.keys(plain.request.http!.headers).map((h) => h.toLowerCase());
        assert.ok(
          !names.includes('authorization') && !names.includes('x-canary') && !names.includes('mcp-session-id'),
          `${spec}: ${names.join(', ')}`,
        );
        const hs = Object.keys(ex.find((e) => e.probe === 'handshake')!.request.http!.headers).map((h) => h.toLowerCase());
        assert.ok(
          hs.includes('authorization') && hs.includes('x-canary'),
          `${spec}: the https handshake carried the user headers (${hs.join(', ')})`,
        );
      }
    });
  });

  it('plain http redirected with 308: to the https URL passes, to an http URL fails', { skip: TLS_SKIP }, async () => {
    const cert = makeCert();
    const fx = await startFixtureProcess({
      transport: 'streamable-http',
      args: ['--stateless'],
      env: { ...FEATURES, ...tlsEnv(cert) },
      readyTimeoutMs: 60_000,
    });
    const toHttps = await redirectFront(fx.port, (p) => `https://127.0.0.1:${p}/mcp`);
    const toHttp = await redirectFront(fx.port, (p) => `http://127.0.0.1:${p}/elsewhere`);
    try {
      const [good] = await complyChild(toHttps.url, '2026-07-28', cert.cert);
      assert.equal(mine(good).status, 'pass', mine(good).detail);
      assert.match(mine(good).detail, /redirected \(HTTP 308\) to https:/);
      const [bad] = await complyChild(toHttp.url, '2026-07-28', cert.cert);
      assert.equal(mine(bad).status, 'fail', mine(bad).detail);
      assert.match(mine(bad).detail, /not a single https URL/);
      // the fronts change nothing else: every other verdict is the same through both
      const changed = Object.keys(verdicts(good)).filter((id) => id !== ID && verdicts(good)[id] !== verdicts(bad)[id]);
      assert.deepEqual(changed, []);
    } finally {
      await Promise.all([toHttps.close(), toHttp.close()]);
      await fx.stop();
      cert.cleanup();
    }
  });

  it('a plain http fixture on loopback: not_applicable on both eras, saying why', async () => {
    const runs = await httpRuns(SPECS, FEATURES);
    for (const r of runs) {
      const x = mine(r);
      assert.equal(x.status, 'not_applicable', `${r.revision}: ${x.status} ${x.detail}`);
      assert.match(x.detail, /loopback/);
    }
  });

  it('a plain http target on a non-loopback host fails (a real recording re-graded with only its host changed)', async () => {
    const fx = await startFixtureProcess({ transport: 'streamable-http', args: ['--stateless'], env: FEATURES, readyTimeoutMs: 60_000 });
    let rec: Recording;
    try {
      ({ recording: rec } = await comply(
        { kind: 'http', url: fx.url, headers: {} },
        {
          spec: '2026-07-28',
          timeoutMs: 15_000,
          startupTimeoutMs: 60_000,
          selection: { only: [], skip: [] },
          invasive: false,
          secrets: [],
        },
      ));
    } finally {
      await fx.stop();
    }
    const sel = { only: [ID], skip: [] };
    assert.equal(reportFromRecording(rec, sel).runs[0].results.find((x) => x.id === ID)?.status, 'not_applicable');
    const remote = fx.url.replace('127.0.0.1', 'mcp.example.test');
    const moved: Recording = { ...rec, target: remote, evidence: rec.evidence.map((e) => ({ ...e, target: remote })) };
    const x = reportFromRecording(moved, sel).runs[0].results.find((r) => r.id === ID)!;
    assert.equal(x.status, 'fail', x.detail);
    assert.match(x.detail, /in clear/);
  });
});
