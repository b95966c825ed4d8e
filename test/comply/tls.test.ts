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
import { join } from 'node:path';
import { comply, reportFromRecording, type Recording } from '../../pipeline/comply/run.ts';
import { plainTwinUrl } from '../../pipeline/comply/probes-security.ts';
import type { RunReport } from '../../pipeline/comply/types.ts';
import { startFixtureProcess } from '../../pipeline/fixture/launch.ts';
import { AUTH_MODE, AUTH_TOKEN, FEATURES, httpRuns, tlsRuns } from './harness.ts';
import { TLS_SKIP, makeCert, tlsEnv, type TestCert } from './tls-cert.ts';

const ID = 'security-tls-required';
const SPECS = ['2025-11-25', '2026-07-28'] as const;
const CANARY = 'canary-secret-7d41e0b9';
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
      const args = (rec: string) => (spec: string) => ['--auth', `Bearer ${AUTH_TOKEN}`, '-H', `X-Canary: ${CANARY}`, '--record', join(cert.dir, `${rec}-${spec}.json`)];
      clean = await tlsRuns(SPECS, cert.cert, env, ['--stateless'], args('clean'));
      broken = await tlsRuns(SPECS, cert.cert, { ...env, FIXTURE_BREAK: 'tls-plain-too' }, ['--stateless'], args('broken'));
    });
    after(() => cert?.cleanup());

    it('clean https fixture: passes on both eras (plain http on its port is refused)', () => {
      assert.deepEqual(clean.map((r) => r.revision), [...SPECS]);
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
        const changed = Object.keys(before).filter((id) => id !== ID && before[id] !== after[id]).map((id) => `${id}: ${before[id]} -> ${after[id]}`);
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
        assert.ok(!names.includes('authorization') && !names.includes('x-canary') && !names.includes('mcp-session-id'), `${spec}: ${names.join(', ')}`);
        const hs = Object.keys(ex.find((e) => e.probe === 'handshake')!.request.http!.headers).map((h) => h.toLowerCase());
        assert.ok(hs.includes('authorization') && hs.includes('x-canary'), `${spec}: the https handshake carried the user headers (${hs.join(', ')})`);
      }
    });
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
    const fx = await startFixtureProcess({ transport: 'streamable-http', args: ['--stateless'], env: FEATURES, light: true, readyTimeoutMs: 60_000 });
    let rec: Recording;
    try {
      ({ recording: rec } = await comply({ kind: 'http', url: fx.url, headers: {} }, { spec: '2026-07-28', timeoutMs: 15_000, startupTimeoutMs: 60_000, selection: { only: [], skip: [] }, invasive: false, secrets: [] }));
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
