/**
 * `mcpgauge comply` end to end through the CLI against the fixture: outputs from one run
 * (JSON validated with ajv against the repo schema, SARIF 2.1.0 required structure, JUnit,
 * markdown, html), --list without a connection, bad input (one line, non-zero exit), secrets
 * never written (canary), --record then --replay re-grades to the same verdicts offline.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { complySchemaValidator } from '../../pipeline/comply/output/schema.ts';
import { FIXTURE_ARGV, startFixtureProcess } from '../../pipeline/fixture/launch.ts';
import { SARIF_REQUIRED_SCHEMA } from './sarif-required.ts';
import { complyCli } from './harness.ts';

const FIXTURE = [process.execPath, ...FIXTURE_ARGV, '--transport', 'stdio'];
const tmp = mkdtempSync(join(tmpdir(), 'comply-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const cli = complyCli;

describe('mcpgauge comply CLI', { concurrency: 2, timeout: 240_000 }, () => {
  it('--list names the checks without connecting (no target needed)', async () => {
    const r = await cli(['--list', '--spec-version', '2026-07-28', '--only', 'transport']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /2026-07-28: \d+ checks/);
    assert.match(r.out, /transport-header-version-required/);
    assert.doesNotMatch(r.out, /tools-list /);
  });

  it('bad input: one clear line, exit 2 (could not run as asked)', async () => {
    for (const [args, re] of [
      [['--format', 'yaml', '--', 'x'], /--format must be one of/],
      [['--only', 'no-such-check', '--list'], /--only: unknown check or category "no-such-check"/],
      [['--spec-version', '2024-01-01', '--list'], /--spec-version must be auto/],
      [['--out', 'pdf=x.pdf', '--', 'x'], /--out: unknown format "pdf"/],
      [['--replay', join(tmp, 'missing.json')], /missing\.json: cannot read file/],
      [['-E', 'NOEQUALS', '--', 'x'], /-E: expected KEY=VALUE/],
    ] as const) {
      const r = await cli([...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, re);
      assert.equal(r.err.trim().split('\n').length, 1, r.err);
    }
    // an unknown flag (commander's usage error) and no target at all are usage errors too
    assert.equal((await cli(['--no-such-flag', 'http://127.0.0.1:1/mcp'])).code, 2);
    const none = await cli([]);
    assert.equal(none.code, 2);
    assert.match(none.err, /no target/);
  });

  it('an unreachable URL: no grade, reason unreachable, exit 2 (nothing gradable) with the reason on one line, --strict too', async () => {
    const s = await cli(['--strict', '--format', 'json', '--timeout', '1000', '--startup-timeout', '1000', 'http://127.0.0.1:1/mcp']);
    assert.equal(s.code, 2, s.err);
    assert.match(s.err, /^mcpgauge comply: nothing gradable on 2025-11-25\/http: the server is unreachable/);
    assert.equal(s.err.trim().split('\n').length, 1, s.err);
    const r = await cli([
      '--format',
      'json',
      '--min-grade',
      'D',
      '--timeout',
      '1000',
      '--startup-timeout',
      '1000',
      'http://127.0.0.1:9/mcp',
    ]);
    assert.equal(r.code, 2, r.err);
    const rep = JSON.parse(r.out);
    assert.equal(rep.runs[0].conformance.grade, null);
    assert.match(JSON.stringify(rep.warnings), /unreachable/);
    assert.ok(rep.runs[0].results.some((x: { reason?: string }) => x.reason === 'unreachable'));
  });

  it('one run writes every format; JSON matches the schema; SARIF has the 2.1.0 required structure; replay re-grades offline', async () => {
    const files = Object.fromEntries(['json', 'sarif', 'junit', 'markdown', 'html'].map((f) => [f, join(tmp, `out.${f}`)]));
    const rec = join(tmp, 'run.recording.json');
    const r = await cli([
      '--format',
      'terminal',
      '--spec-version',
      '2026-07-28',
      '--record',
      rec,
      '--out',
      Object.entries(files)
        .map(([f, p]) => `${f}=${p}`)
        .join(','),
      '--',
      ...FIXTURE,
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /conformance: A \(score 100/);
    const rep = JSON.parse(readFileSync(files.json, 'utf8'));
    const v = complySchemaValidator();
    assert.ok(v(rep), JSON.stringify(v.errors?.slice(0, 3)));
    const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ??
      Ajv2020Module) as unknown as typeof Ajv2020Module.default;
    const sarifOk = new Ajv2020({ strict: false }).compile(SARIF_REQUIRED_SCHEMA);
    const sarif = JSON.parse(readFileSync(files.sarif, 'utf8'));
    assert.ok(sarifOk(sarif), JSON.stringify(sarifOk.errors?.slice(0, 3)));
    assert.equal(sarif.runs[0].results.length, 0, 'a clean fixture has no SARIF results');
    assert.match(readFileSync(files.junit, 'utf8'), /<testsuite name="[^"]*2026-07-28 stdio" tests="\d+" failures="0"/);
    assert.match(readFileSync(files.markdown, 'utf8'), /^# MCP compliance: stdio:/);
    assert.match(readFileSync(files.html, 'utf8'), /^<!doctype html>.*<section id="compliance">/is);
    const recorded = JSON.parse(readFileSync(rec, 'utf8'));
    const hs = recorded.evidence[0].exchanges.find((e: { probe: string }) => e.probe === 'handshake');
    assert.match(hs.request.body, /"method":"server\/discover"/, 'request bytes recorded');
    assert.match(hs.response.body, /supportedVersions/, 'paired with the response bytes');
    const re = await cli(['--replay', rec, '--format', 'json']);
    assert.equal(re.code, 0, re.err);
    const rr = JSON.parse(re.out);
    const verdicts = (x: { runs: Array<{ results: Array<{ id: string; code: string }> }> }) =>
      x.runs.map((run: { results: Array<{ id: string; code: string }> }) => run.results.map((c) => `${c.id}=${c.code}`).join(' '));
    assert.deepEqual(verdicts(rr), verdicts(rep as never));
    assert.match(rr.provenance.method, /--replay/);
  });

  it('a failing server: SARIF results per failing check, --strict exits 1, replay re-grades the failure', async () => {
    const rec = join(tmp, 'broken.recording.json');
    const r = await cli(['--format', 'sarif', '--strict', '--spec-version', '2026-07-28', '--record', rec, '--', ...FIXTURE], {
      FIXTURE_BREAK: 'no-caching',
    });
    assert.equal(r.code, 1, r.err);
    const sarif = JSON.parse(r.out);
    const ids = sarif.runs[0].results.map((x: { ruleId: string }) => x.ruleId).sort();
    assert.deepEqual(ids, ['lifecycle-discover-caching', 'tools-list-caching']);
    assert.equal(sarif.runs[0].results[0].level, 'error');
    const re = await cli(['--replay', rec, '--format', 'json', '--strict']);
    assert.equal(re.code, 1);
    const rep = JSON.parse(re.out);
    assert.equal(rep.runs[0].results.find((x: { id: string }) => x.id === 'tools-list-caching').status, 'fail');
    // two failing MUSTs cap the letter at C; --no-cap gives the plain weighted letter
    assert.equal(rep.runs[0].conformance.cap, 'C');
    assert.equal(rep.runs[0].conformance.grade, 'C');
    assert.match(re.err, /^mcpgauge comply: --strict: 2 MUST check\(s\) failed: /);
    const plain = JSON.parse((await cli(['--replay', rec, '--format', 'json', '--no-cap'])).out).runs[0].conformance;
    assert.equal(plain.capApplied, false);
    assert.equal(plain.grade, plain.uncapped);
    assert.notEqual(plain.grade, 'C');
    // the terminal and markdown outputs state the score, the cap and the failing MUSTs next to the letter, and the rule
    const term = (await cli(['--replay', rec])).out;
    assert.match(
      term,
      /conformance: C \(score \d+, \d+% coverage; 2 failing MUSTs: lifecycle-discover-caching, tools-list-caching; capped at C from [AB]\)/,
    );
    assert.match(term, /any failing MUST caps the letter at B, two or more at C/);
    assert.match(term, /requirement \(our summary\)/);
    const md = (await cli(['--replay', rec, '--format', 'markdown'])).out;
    assert.match(md, /capped at C/);
    assert.match(md, /Requirement \(our summary\)/);
  });

  it('an unknown FIXTURE_BREAK knob exits 2 with one line', async () => {
    const r = spawnSync(FIXTURE[0], FIXTURE.slice(1), {
      input: '',
      encoding: 'utf8',
      env: { ...process.env, FIXTURE_BREAK: 'no-such-knob' },
      timeout: 30_000,
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /FIXTURE_BREAK: unknown knob "no-such-knob"/);
  });

  it('secrets never reach any output (canary in --auth, -H, -E and --env-file)', async () => {
    // auth mode with the canary as the token: the auth probes really use it (one moves it into ?access_token=)
    const fx = await startFixtureProcess({
      transport: 'streamable-http',
      args: ['--stateless'],
      env: { FIXTURE_AUTH_TOKEN: 'canary-auth-4b2f' },
    });
    try {
      const envFile = join(tmp, 'secrets.env');
      writeFileSync(envFile, 'FILE_SECRET="canary-file-7d1e"\n');
      const dir = join(tmp, 'canary');
      const outs = ['json', 'sarif', 'junit', 'markdown', 'html'].map((f) => `${f}=${join(dir, `o.${f}`)}`).join(',');
      const h = await cli([
        '--format',
        'json',
        '--verbose',
        '--auth',
        'Bearer canary-auth-4b2f',
        '-H',
        'X-Api-Key: canary-hdr-93ac',
        '--record',
        join(dir, 'rec.json'),
        '--out',
        outs,
        fx.url,
      ]);
      assert.equal(h.code, 0, h.err);
      const sec = JSON.parse(h.out).runs[0].results.filter((x: { meta: { category: string } }) => x.meta.category === 'security');
      for (const id of ['security-auth-required', 'security-token-in-uri', 'security-credential-not-echoed'])
        assert.equal(sec.find((x: { id: string }) => x.id === id)?.status, 'pass', `${id} evaluated with the canary token`);
      const s = await cli([
        '--format',
        'terminal',
        '--verbose',
        '-E',
        'API_TOKEN=canary-env-5c7a',
        '--env-file',
        envFile,
        '--record',
        join(dir, 'rec2.json'),
        '--',
        ...FIXTURE,
      ]);
      assert.equal(s.code, 0, s.err);
      const written = readdirSync(dir)
        .map((f) => readFileSync(join(dir, f), 'utf8'))
        .join('\n');
      const all = [h.out, h.err, s.out, s.err, written].join('\n');
      assert.ok(written.includes('[redacted]'), 'the Authorization header is recorded, redacted');
      for (const canary of ['canary-auth-4b2f', 'canary-hdr-93ac', 'canary-env-5c7a', 'canary-file-7d1e'])
        assert.ok(!all.includes(canary), `${canary} leaked`);
    } finally {
      await fx.stop();
    }
  });
});
