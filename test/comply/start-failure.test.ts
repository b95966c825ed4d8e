/**
 * comply read by a server author (issue 30): a server that cannot start gets its root cause (the
 * exit code and the stderr lines that carry the error), no fixes or era-probe warnings that
 * follow from it, and no green bar for what was never exchanged; HTML keeps every fix of a server
 * that runs; every --out says where it wrote; --list --format json is JSON; the cap fields agree.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_ARGV } from '../../pipeline/fixture/launch.ts';
import { complyCli } from './harness.ts';

const tmp = mkdtempSync(join(tmpdir(), 'comply-start-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const MISSING = join(tmp, 'no-such-server.js');

const cli = complyCli;

describe('comply on a server that cannot start', { concurrency: 2, timeout: 120_000 }, () => {
  it('terminal: the root cause with the stderr error line; no fix, no era-probe warning, no green bar; exit 2 naming the cause', async () => {
    const r = await cli(['--', process.execPath, MISSING]);
    assert.equal(r.code, 2, r.err);
    assert.match(
      r.out,
      /root cause: the server exited with code 1 before answering any request; its stderr: Error: Cannot find module '.*no-such-server\.js'/,
    );
    assert.doesNotMatch(r.out, /fix:/, 'no fix for a server that never started');
    assert.doesNotMatch(r.out, /must tolerate unknown requests before initialize/, 'no era-probe warning that follows from it');
    assert.doesNotMatch(r.out, /█/, 'no green bar: nothing was exchanged');
    assert.doesNotMatch(r.out, /Node\.js v\d+ *$/m, 'the runtime banner is not the quoted cause');
    assert.match(
      r.err,
      /^mcpgauge comply: nothing gradable on 2025-11-25\/stdio: the server exited with code 1 before answering any request; its stderr: Error: Cannot find module/m,
    );
  });

  it('json and markdown say the same; every --out prints where it wrote', async () => {
    const json = join(tmp, 'start.json');
    const md = join(tmp, 'start.md');
    const r = await cli(['--spec-version', '2025-11-25', '--out', `json=${json},markdown=${md}`, '--', process.execPath, MISSING]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, new RegExp(`comply: wrote json ${json.replace(/[.]/g, '\\.')}`));
    assert.match(r.err, new RegExp(`comply: wrote markdown ${md.replace(/[.]/g, '\\.')}`));
    const run = JSON.parse(readFileSync(json, 'utf8')).runs[0];
    assert.match(run.startFailure, /exited with code 1 before answering/);
    assert.deepEqual(run.warnings.length, 1);
    for (const id of ['stdio-framing', 'stdio-stdout-clean'])
      assert.equal(run.results.find((x: { id: string }) => x.id === id).status, 'not_applicable', id);
    const text = readFileSync(md, 'utf8');
    assert.match(text, /\*\*Root cause:\*\* the server exited with code 1/);
    assert.doesNotMatch(text, /Fix:/);
  });

  it('a server that runs: HTML keeps every fix of its failing checks; the cap fields agree', async () => {
    const html = join(tmp, 'crash.html');
    const json = join(tmp, 'crash.json');
    // the fixture with a break knob: it answers, and some checks fail
    const r = await cli(
      [
        '--spec-version',
        '2025-11-25',
        '--out',
        `html=${html},json=${json}`,
        '--',
        process.execPath,
        ...FIXTURE_ARGV,
        '--transport',
        'stdio',
      ],
      { FIXTURE_BREAK: 'stdout-banner' },
    );
    assert.notEqual(r.code, 2, r.err);
    assert.match(r.err, /comply: wrote html /);
    const rep = JSON.parse(readFileSync(json, 'utf8'));
    const failing = rep.runs[0].results.filter((x: { status: string }) => x.status === 'fail');
    assert.ok(failing.length > 0, 'the break knob made a check fail');
    const page = readFileSync(html, 'utf8');
    for (const f of failing)
      assert.ok(
        page.includes(
          f.meta.fix.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
        ) || page.includes(f.meta.fix),
        `html has the fix of ${f.id}`,
      );
    for (const run of rep.runs)
      for (const g of [run.conformance, run.security])
        assert.ok(!(g.cap === null && g.capApplied), `cap ${g.cap} with capApplied ${g.capApplied}`);
  });

  it('--list --format json is JSON', async () => {
    const r = await cli(['--list', '--format', 'json', '--spec-version', '2026-07-28']);
    assert.equal(r.code, 0, r.err);
    const l = JSON.parse(r.out) as Array<{ revision: string; checks: Array<{ id: string; spec: string }> }>;
    assert.equal(l[0].revision, '2026-07-28');
    assert.ok(l[0].checks.length > 20 && l[0].checks.every((c) => c.id && c.spec.startsWith('https://')));
  });
});
