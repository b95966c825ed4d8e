/**
 * Issue 29, item 7: the gate's verdicts cannot be talked into green.
 *
 * - a config in which no cell is required (or a `--cells` selection without a required cell, or a
 *   config in which every step is advisory) printed "gate PASS: 0 pass, 1 fail" and exited 0: now
 *   exit 2 with one line naming the file and the field, before anything starts;
 * - a cell whose required steps were all blocked by a failed advisory step passed: now red;
 * - a merge whose every required cell was not_applicable passed (a single run of it is exit 2): now exit 2;
 * - a green gate with a red optional cell says so on its verdict line;
 * - `gate merge` took a fragment whose step verdict was edited from fail to pass (its digests
 *   covered build and config, not results): fragments now carry `digests.results`, recomputed by
 *   the merge (a mismatch is exit 2, one line, nothing written);
 * - `gate merge` copied a symbolic link from a fragment's logs/ into results/gate/logs (and read a
 *   linked `*.fragment.json`, quoting its first bytes in the parse error): links are never followed.
 *
 * Real gate processes against the reference proxy, behind a `sh` wrapper that exits at once in
 * the cell RED (so the red cell costs no time) and execs the reference proxy in any other cell.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO, testConfig } from '../gate/helpers.ts';
import type { GateFragment } from '../../pipeline/gate/fragment.ts';
import type { GateReport } from '../../pipeline/gate/report.ts';
import { resultsDigest } from '../../pipeline/gate/digest.ts';
import { STEP_NAMES } from '../../pipeline/gate/steps/index.ts';

const GREEN = 'stdio/2025-11-25';
const RED = 'stdio/2026-07-28';
const RED_FILE = 'stdio_2026-07-28.fragment.json';
/** the reference proxy, except in the cell RED, where the "proxy" exits at once (ready fails, the rest is blocked) */
const PROXY = `MCPGAUGE_PROXY_API_KEY={API_KEY} sh -c 'if [ "$1" = ${RED} ]; then echo planted red cell >&2; exit 3; fi; exec "$2" "$3" proxy --config "$4"' gate-verdicts {CELL} {NODE} {MCPGAUGE} {CONFIG_FILE}`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, 'gate', ...args],
      { cwd: REPO, env: { ...process.env, CI: 'true', GITHUB_STEP_SUMMARY: '' }, timeout: 400_000 },
      (err, stdout, stderr) => {
        const code = err ? (err as { code?: unknown }).code : 0;
        done({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

const read = <T>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T;
const why = (r: Run) => `stdout: ${r.stdout}\nstderr: ${r.stderr.slice(-1500)}`;

/** exit 2, exactly one line on stderr matching `re`, nothing on stdout */
function refused(r: Run, re: RegExp): void {
  assert.equal(r.code, 2, why(r));
  assert.equal(r.stdout, '', why(r));
  assert.match(r.stderr, /^mcpgauge: [^\n]*\n$/, why(r));
  assert.match(r.stderr, re, why(r));
}

/** every entry under `dir` (lstat: links are listed, not followed) */
function tree(dir: string): Array<{ path: string; link: boolean; file: boolean }> {
  const out: Array<{ path: string; link: boolean; file: boolean }> = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    out.push({ path: p, link: st.isSymbolicLink(), file: st.isFile() });
    if (st.isDirectory()) out.push(...tree(p));
  }
  return out;
}

describe('the gate cannot be talked into green', () => {
  let dir: string;
  /** cells GREEN required, RED optional; no compliance block (the yardstick and the compliance step are then skipped, quickly) */
  let cfg: string;
  /** every cell required (RED too): its fragment is a red required cell */
  let cfgRed: string;
  let single: Run;
  let fragGreen: Run;
  let fragRed: Run;
  let fragRequiredRed: Run;
  const at = (...p: string[]) => join(dir, ...p);
  /** a test config in its own folder (`<name>/gate.config.json`) with the wrapper proxy and no compliance block */
  const make = (name: string, patch: (c: any) => void) => {
    mkdirSync(at(name));
    return testConfig(at(name), (c) => {
      delete c.compliance;
      c.proxy.command = PROXY;
      patch(c);
    });
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpgauge-hostile-verdicts-'));
    cfg = make('cfg', (c) => (c.cells[RED].required = false));
    cfgRed = make('cfg-red', () => {});
    // one real green cell twice at once (a whole run and a fragment), the red cell three times (it ends at once)
    [single, fragGreen, fragRed, fragRequiredRed] = await Promise.all([
      cli(['--config', cfg, '--cells', `${GREEN},${RED}`, '--no-fixture-grade', '--jobs', '2', '--out', at('single')]),
      cli(['--config', cfg, '--cells', GREEN, '--fragment', at('f-green')]),
      cli(['--config', cfg, '--cells', RED, '--fragment', at('f-red')]),
      cli(['--config', cfgRed, '--cells', RED, '--fragment', at('f-required-red')]),
    ]);
    const [y1, y2] = await Promise.all([
      cli(['--config', cfg, '--cells', 'yardstick', '--fragment', at('f-yardstick')]),
      cli(['--config', cfgRed, '--cells', 'yardstick', '--fragment', at('f-yardstick-red')]),
    ]);
    assert.deepEqual([y1.code, y2.code], [0, 0], why(y1) + why(y2));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a config in which no cell is required is exit 2 before anything starts (gate, fragment, merge)', async () => {
    const none = make('cfg-none', (c) => {
      for (const id of Object.keys(c.cells)) c.cells[id].required = false;
    });
    const [gate, frag, merge] = await Promise.all([
      cli(['--config', none, '--cells', RED, '--no-fixture-grade', '--out', at('out-none')]),
      cli(['--config', none, '--cells', RED, '--fragment', at('f-none')]),
      cli(['merge', at('f-red'), '--config', none, '--out', at('merged-none')]),
    ]);
    for (const r of [gate, frag, merge])
      refused(r, /cfg-none\/gate\.config\.json: \/cells: no cell is required \(every cell has "required": false\)/);
    for (const p of ['out-none', 'f-none', 'merged-none']) assert.ok(!existsSync(at(p)), `${p} is not written`);
  });

  test('a --cells selection without a required cell is exit 2 (gate and merge); a fragment of an optional cell still runs', async () => {
    const [gate, merge] = await Promise.all([
      cli(['--config', cfg, '--cells', RED, '--no-fixture-grade', '--out', at('out-optional')]),
      cli(['merge', at('f-red'), at('f-yardstick'), '--config', cfg, '--cells', RED, '--out', at('merged-optional')]),
    ]);
    for (const r of [gate, merge])
      refused(r, new RegExp(`--cells ${RED}: no required cell selected \\(required in \\S*cfg/gate\\.config\\.json: ${GREEN}, `));
    for (const p of ['out-optional', 'merged-optional']) assert.ok(!existsSync(at(p)), `${p} is not written`);
    // the fragment of the optional red cell: exit 0 (it cannot fail the gate), but not called green
    assert.equal(fragRed.code, 0, why(fragRed));
    assert.match(fragRed.stdout, new RegExp(`^gate fragment ${RED} RED \\(optional cell: exit 0\\) \\(fail: ready: `));
    assert.equal(fragRequiredRed.code, 1, why(fragRequiredRed));
    assert.match(fragRequiredRed.stdout, new RegExp(`^gate fragment ${RED} RED \\(fail: ready: `));
  });

  test('a merge in which no required cell was evaluated (each not_applicable) is exit 2, as a single run is', async () => {
    const HTTP = 'http-stateless/2025-11-25';
    const cfgHttp = make('cfg-http', (c) => {
      for (const id of Object.keys(c.cells)) c.cells[id].required = id === HTTP;
    });
    // --fronts stdio: the proxy cannot front the one required (HTTP) cell, so its fragment is not_applicable at once
    const frags = await Promise.all(
      [HTTP, RED, 'yardstick'].map((id) => cli(['--config', cfgHttp, '--cells', id, '--fronts', 'stdio', '--fragment', at('f-na')])),
    );
    assert.deepEqual(
      frags.map((r) => r.code),
      [0, 0, 0],
      frags.map(why).join('\n'),
    );
    const [merge, single] = await Promise.all([
      cli(['merge', at('f-na'), '--config', cfgHttp, '--cells', `${HTTP},${RED}`, '--out', at('merged-na')]),
      cli(['--config', cfgHttp, '--cells', `${HTTP},${RED}`, '--fronts', 'stdio', '--no-fixture-grade', '--out', at('out-na')]),
    ]);
    refused(
      merge,
      new RegExp(`^mcpgauge: gate merge: no required cell was evaluated: ${HTTP} not applicable: the proxy fronts stdio upstreams only`),
    );
    // the single run has said so since before (after its progress line naming the not-applicable cell)
    assert.equal(single.code, 2, why(single));
    assert.match(single.stderr, new RegExp(`\nmcpgauge: no required cell can run: ${HTTP} not applicable: [^\n]*\n$`));
    for (const p of ['merged-na', 'out-na']) assert.ok(!existsSync(at(p)), `${p} is not written`);
  });

  test('every step advisory is exit 2; a required step blocked by a failed advisory step is red', async () => {
    const advisory = make('cfg-advisory', (c) => (c.steps = Object.fromEntries(STEP_NAMES.map((n) => [n, { required: false }]))));
    const readyAdvisory = make('cfg-ready-advisory', (c) => (c.steps = { ready: { required: false } }));
    const [all, ready] = await Promise.all([
      cli(['--config', advisory, '--cells', RED, '--no-fixture-grade', '--out', at('out-advisory')]),
      // the proxy never starts: ready fails (advisory), every other step is blocked, i.e. nothing was shown
      cli(['--config', readyAdvisory, '--cells', RED, '--no-fixture-grade', '--out', at('out-ready-advisory')]),
    ]);
    refused(all, /cfg-advisory\/gate\.config\.json: \/steps: every step has "required": false/);
    assert.ok(!existsSync(at('out-advisory')));
    assert.equal(ready.code, 1, why(ready));
    assert.match(
      ready.stdout,
      new RegExp(
        `^gate FAIL: 0 pass, 0 flaky, 1 fail, 0 skipped in .*\n  ${RED}: fail: ${STEP_NAMES.length - 1} required step\\(s\\) did not run: discover, call, meta, .*, compliance \\(blocked: the proxy exited during the ready step\\)\n`,
      ),
    );
    const cell = read<GateReport>(join(at('out-ready-advisory'), 'gate-report.json')).cells[0];
    assert.deepEqual([cell.status, cell.steps[0].status, cell.steps[0].advisory], ['fail', 'fail', true]);
  });

  test('a green gate with a red optional cell names it on the verdict line (gate and merge)', async () => {
    assert.equal(single.code, 0, why(single));
    assert.match(single.stdout, new RegExp(`^gate PASS \\(1 optional cell red: ${RED}\\): 1 pass, 0 flaky, 1 fail, 0 skipped in `));
    assert.equal(fragGreen.code, 0, why(fragGreen));
    assert.match(fragGreen.stdout, new RegExp(`^gate fragment ${GREEN} GREEN \\(pass: `));
    const m = await cli([
      'merge',
      at('f-green'),
      at('f-red'),
      at('f-yardstick'),
      '--config',
      cfg,
      '--cells',
      `${GREEN},${RED}`,
      '--out',
      at('merged-green'),
    ]);
    assert.equal(m.code, 0, why(m));
    assert.match(
      m.stdout,
      new RegExp(`^gate merge PASS \\(1 optional cell red: ${RED}\\): 3 fragment\\(s\\); 1 pass, 0 flaky, 1 fail, 0 skipped -> `),
    );
  });

  test('a fragment whose verdict was edited from fail to pass (digests kept) is refused: exit 2, nothing written', async () => {
    const file = at('f-required-red', RED_FILE);
    const original = read<GateFragment>(file);
    assert.match(original.digests.results, /^sha256:[0-9a-f]{64}$/);
    assert.equal(original.report!.cells[0].status, 'fail');
    // gate merge of one red-cell fragment folder beside the yardstick's, under the red config
    const mergeRed = (fragments: string, out: string) =>
      cli(['merge', fragments, at('f-yardstick-red'), '--config', cfgRed, '--cells', RED, '--out', out]);
    const untouched = await mergeRed(at('f-required-red'), at('merged-untouched'));
    assert.equal(untouched.code, 1, why(untouched));
    // the attack: every trace of the red turned green, every digest kept
    const forge = (f: GateFragment) => {
      const r = f.report!;
      const cell = r.cells[0];
      for (const s of cell.steps) if (s.status === 'fail' || s.status === 'blocked') Object.assign(s, { status: 'pass', reason: 'ok' });
      Object.assign(cell, { status: 'pass', reason: `${cell.steps.length} steps passed` });
      Object.assign(r, { verdict: 'pass', exit_code: 0, failures: [], counts: { pass: 1, fail: 0, flaky: 0, skipped: 0 } });
      f.exit_code = 0;
      return f;
    };
    mkdirSync(at('f-forged'));
    writeFileSync(at('f-forged', RED_FILE), JSON.stringify(forge(structuredClone(original)), null, 2));
    const forged = await mergeRed(at('f-forged'), at('merged-forged'));
    refused(
      forged,
      new RegExp(
        `^mcpgauge: gate merge: fragment \\S*f-forged/${RED_FILE}: digests\\.results does not match its content \\(it says sha256:[0-9a-f]{12}…, the content gives sha256:[0-9a-f]{12}…\\)`,
      ),
    );
    assert.ok(!existsSync(at('merged-forged')), 'nothing written');
    // one changed value anywhere (here a measured duration) is refused the same way
    const tweaked = structuredClone(original);
    tweaked.report!.cells[0].duration_ms += 1;
    mkdirSync(at('f-tweaked'));
    writeFileSync(at('f-tweaked', RED_FILE), JSON.stringify(tweaked));
    refused(
      await cli(['merge', at('f-tweaked'), at('f-yardstick-red'), '--config', cfgRed, '--cells', RED, '--out', at('merged-tweaked')]),
      /digests\.results does not match/,
    );
    // without its results digest: not a fragment (schema), red
    const stripped = forge(structuredClone(original));
    delete (stripped.digests as Partial<GateFragment['digests']>).results;
    mkdirSync(at('f-stripped'));
    writeFileSync(at('f-stripped', RED_FILE), JSON.stringify(stripped));
    const s = await mergeRed(at('f-stripped'), at('merged-stripped'));
    assert.equal(s.code, 1, why(s));
    assert.match(s.stdout, /fails the fragment schema \(\/digests must have required property 'results'/);
    // the limit, as the README says: not a signature; a forger who recomputes the digest is not caught here
    const recomputed = forge(structuredClone(original));
    recomputed.digests.results = resultsDigest(recomputed);
    mkdirSync(at('f-recomputed'));
    writeFileSync(at('f-recomputed', RED_FILE), JSON.stringify(recomputed));
    const rc = await mergeRed(at('f-recomputed'), at('merged-recomputed'));
    assert.equal(rc.code, 0, `a recomputed digest is accepted (integrity rests on the artifact store): ${why(rc)}`);
  });

  test('links in fragments are neither followed nor copied; what a link points to appears nowhere', async () => {
    const secret = `hush-${randomBytes(8).toString('hex')}`;
    const outside = at('outside');
    mkdirSync(join(outside, 'folder'), { recursive: true });
    mkdirSync(join(outside, 'stdio_2026-07-28', 'attempt-1'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), `${secret}\n`);
    writeFileSync(join(outside, 'folder', 'inner.log'), `${secret}\n`);
    // where a linked logs/ of the red cell would lead
    writeFileSync(join(outside, 'stdio_2026-07-28', 'attempt-1', 'gate.log'), `${secret}\n`);
    // copies of the fragment folders, with links planted in their logs
    const green = at('links-green');
    const red = at('links-red');
    cpSync(at('f-green'), green, { recursive: true });
    cpSync(at('f-red'), red, { recursive: true });
    const greenLogs = join(green, 'logs', 'stdio_2025-11-25');
    assert.ok(existsSync(join(greenLogs, 'attempt-1', 'proxy.log')), 'the fragment has its logs');
    symlinkSync(join(outside, 'secret.txt'), join(greenLogs, 'secret.log'));
    symlinkSync(join(outside, 'folder'), join(greenLogs, 'attempt-1', 'folder'));
    // the whole logs/ of the red fragment is a link to a folder outside it
    rmSync(join(red, 'logs'), { recursive: true, force: true });
    symlinkSync(outside, join(red, 'logs'));
    // a "fragment" that is a link to the secret (a parse error used to quote its first bytes), and a linked folder
    const more = at('links-more');
    mkdirSync(more);
    symlinkSync(join(outside, 'secret.txt'), join(more, 'sse_2026-07-28.fragment.json'));
    symlinkSync(outside, join(more, 'artifact'));
    const out = at('merged-links');
    const m = await cli(['merge', green, red, more, at('f-yardstick'), '--config', cfg, '--cells', `${GREEN},${RED}`, '--out', out]);
    assert.equal(m.code, 0, `links are skipped, not a red gate: ${why(m)}`);
    const entries = tree(out);
    assert.deepEqual(
      entries.filter((e) => e.link).map((e) => e.path),
      [],
      'no link in the output',
    );
    assert.ok(
      !entries.some((e) => /secret\.log$|inner\.log$|stdio_2026-07-28/.test(e.path)),
      'the linked files and folders are not copied',
    );
    assert.ok(existsSync(join(out, 'logs', 'stdio_2025-11-25', 'attempt-1', 'proxy.log')), 'the plain log files are copied');
    for (const e of entries.filter((x) => x.file))
      assert.ok(!readFileSync(e.path, 'utf8').includes(secret.slice(0, 8)), `${e.path} holds nothing of the linked file`);
    assert.ok(!(m.stdout + m.stderr).includes(secret.slice(0, 8)), 'nor does the output');
    // each skipped entry is named in a note (advisories), the linked fragment is not read
    const report = read<{ advisories: string[]; merged_from: { fragments: Array<{ file: string }> } }>(join(out, 'gate-report.json'));
    const notes = report.advisories.filter((a) => a.startsWith('skipped in the fragments: ')).join('\n');
    assert.match(
      notes,
      /links-green\/stdio_2025-11-25\.fragment\.json: logs\/stdio_2025-11-25\/attempt-1\/folder is a symbolic link; logs\/stdio_2025-11-25\/secret\.log is a symbolic link: not followed, not copied/,
    );
    assert.match(notes, /links-red\/stdio_2026-07-28\.fragment\.json: logs is a symbolic link: not followed, not copied/);
    assert.match(notes, /links-more\/artifact is a symbolic link: not followed, not read/);
    assert.match(notes, /links-more\/sse_2026-07-28\.fragment\.json is a symbolic link: not followed, not read/);
    assert.deepEqual(
      report.merged_from.fragments.map((f) => f.file).filter((f) => f.includes('links-more')),
      [],
      'the linked fragment is not read',
    );
  });
});
