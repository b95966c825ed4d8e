/**
 * The gate across machines: each cell (and the yardstick) run as its own process with
 * `--fragment`, then `gate merge`, gives the report a single-machine run of the same cells gives
 * (measured fields aside); a missing, corrupt, duplicated or foreign fragment turns it red with
 * the reason. Real gate processes against the reference proxy; the config has no compliance
 * block (the compliance step and the yardstick are then skipped, quickly) and one disabled cell
 * (its fragment is written at once, so the duplicate and foreign-build cases cost no cell run).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, gatewayCmd, REFERENCE_TEMPLATE, REPO, testConfig } from './helpers.ts';
import type { GateReport } from '../../pipeline/gate/report.ts';
import { runFragment, validateFragment, type GateFragment } from '../../pipeline/gate/fragment.ts';
import { mergeFragments, type MergeOptions } from '../../pipeline/gate/merge.ts';
import { canonicalJson, configDigest, proxyDigest, treeDigest } from '../../pipeline/gate/digest.ts';

const A = 'stdio/2025-11-25';
const B = 'stdio/2026-07-28';
const OFF = 'sse/2026-07-28';

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

/** The report without what two separate runs measure differently (times, evidence, step reasons, latency) and without the merge's own block. */
function comparable(r: GateReport): unknown {
  const c = structuredClone(r) as Partial<GateReport> & Record<string, unknown>;
  delete c.generated_at;
  delete c.run_id; // per run, like generated_at
  delete c.timing;
  delete c.merged_from;
  delete (c.options as Partial<GateReport['options']>).jobs;
  for (const cell of c.cells!) {
    delete (cell as { duration_ms?: number }).duration_ms;
    delete cell.metrics.latency_p95_ms;
    for (const s of cell.steps) {
      delete (s as { duration_ms?: number }).duration_ms;
      delete (s as { evidence?: unknown }).evidence;
      delete (s as { reason?: string }).reason;
    }
  }
  if (c.fixture_compliance) delete (c.fixture_compliance as { duration_ms?: number }).duration_ms;
  return c;
}

const untimed = (text: string) =>
  text
    .replace(/\d+(\.\d+)? s\b/g, 'T s')
    .replace(/time="[\d.]+"/g, 'time="T"')
    .replace(/up to \d+ in parallel/, 'up to N in parallel');

describe('gate fragments and gate merge', () => {
  let dir: string;
  let cfg: string;
  let single: Run;
  let fragA: Run;
  const frag = (name: string) => join(dir, name);
  /** merge in-process (the CLI's own code path below it) into a fresh folder */
  const merge = async (name: string, dirs: string[], o: Partial<MergeOptions> = {}) => {
    const out = join(dir, `merged-${name}`);
    const r = await mergeFragments({ dirs, configFile: cfg, outDir: out, cells: [A, OFF], ...o });
    return { ...r, out };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpgauge-frag-test-'));
    cfg = testConfig(dir, (c) => {
      delete c.compliance;
      c.cells[OFF] = { required: false, enabled: false };
    });
    // two real cells at once (as a --jobs 2 run would): the single-machine run and the fragment run of the same cell
    [single, fragA] = await Promise.all([
      cli(['--config', cfg, '--out', join(dir, 'single'), '--jobs', '2', '--cells', `${A},${OFF}`]),
      cli(['--config', cfg, '--cells', A, '--fragment', frag('fa')]),
    ]);
    // written at once: the yardstick (skipped without a compliance block) and the disabled cell, once as the reference proxy, once as another proxy
    await runFragment({ configFile: cfg, cells: ['yardstick'], fragmentDir: frag('fy') });
    await runFragment({ configFile: cfg, cells: [OFF], fragmentDir: frag('fd') });
    await runFragment({
      configFile: cfg,
      cells: [OFF],
      fragmentDir: frag('fx'),
      proxyCmd: gatewayCmd(),
      proxyConfigTemplate: REFERENCE_TEMPLATE,
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a fragment run exits with its own code and writes one schema-valid file named from the cell id, plus its logs', () => {
    assert.equal(fragA.code, 0, fragA.stdout + fragA.stderr);
    assert.match(fragA.stdout, /^gate fragment stdio\/2025-11-25 GREEN \(pass: .*\) -> .*stdio_2025-11-25.fragment.json\n$/);
    const fa = read<GateFragment>(join(frag('fa'), 'stdio_2025-11-25.fragment.json'));
    assert.deepEqual(validateFragment(fa), []);
    assert.deepEqual([fa.kind, fa.id, fa.exit_code, fa.report!.cells.length, fa.proxy_build.source], ['cell', A, 0, 1, 'mcpgauge package']);
    assert.equal(fa.digests.config, configDigest(JSON.parse(readFileSync(cfg, 'utf8'))));
    for (const l of fa.report!.cells[0].logs) assert.ok(existsSync(join(frag('fa'), l)), `${l} is in the fragment folder`);
    assert.ok(!existsSync(join(frag('fa'), 'gate-report.json')), 'a fragment run writes no report of its own');
    const fy = read<GateFragment>(join(frag('fy'), 'yardstick.fragment.json'));
    assert.deepEqual([fy.kind, fy.fixture_compliance!.status], ['yardstick', 'skipped']);
    const fd = read<GateFragment>(join(frag('fd'), 'sse_2026-07-28.fragment.json'));
    const fx = read<GateFragment>(join(frag('fx'), 'sse_2026-07-28.fragment.json'));
    assert.equal(fd.digests.config, fx.digests.config);
    assert.equal(fd.digests.proxy, fa.digests.proxy);
    assert.notEqual(fd.digests.proxy, fx.digests.proxy, 'another proxy command is another proxy digest');
    assert.equal(fx.proxy_build.source, 'unidentified');
    // the schema cannot say it, validateFragment does: a cell fragment holds exactly its one cell
    assert.match(validateFragment({ ...fa, id: B }).join(), /must hold exactly the cell/);
  });

  test('fragments then merge give the single-machine report, summary and JUnit (measured fields aside)', async () => {
    assert.equal(single.code, 0, single.stdout + single.stderr);
    const m = await merge('same', [frag('fa'), frag('fd'), frag('fy')]);
    assert.equal(m.exitCode, 0, m.report.failures.join('; '));
    const one = read<GateReport>(join(dir, 'single', 'gate-report.json'));
    assert.deepEqual(comparable(m.report), comparable(one));
    // the merge takes the cells exactly as measured (nothing recomputed), with their logs next to the report
    assert.deepEqual(m.report.cells[0], read<GateFragment>(join(frag('fa'), 'stdio_2025-11-25.fragment.json')).report!.cells[0]);
    assert.ok(m.report.cells[0].logs.length > 0);
    for (const l of m.report.cells.flatMap((c) => c.logs)) assert.ok(existsSync(join(m.out, l)), `${l} copied`);
    assert.deepEqual(
      m.report.merged_from!.fragments.map((f) => `${f.id}:${f.status}`),
      [`${A}:accepted`, `${OFF}:accepted`, 'yardstick:accepted'],
    );
    for (const f of ['summary.md', 'junit.xml'])
      assert.equal(untimed(readFileSync(join(m.out, f), 'utf8')), untimed(readFileSync(join(dir, 'single', f), 'utf8')), f);
  });

  test('a deleted required fragment, a corrupt one, a schema-invalid one, no yardstick: red with the reason', async () => {
    const all = frag('all');
    for (const k of ['fa', 'fd', 'fy']) cpSync(frag(k), all, { recursive: true });
    const variant = (name: string, change: (d: string) => void) => {
      const d = frag(name);
      cpSync(all, d, { recursive: true });
      change(d);
      return d;
    };
    const fa = (d: string) => join(d, 'stdio_2025-11-25.fragment.json');
    const missing = variant('missing', (d) => rmSync(fa(d)));
    const corrupt = variant('corrupt', (d) => writeFileSync(fa(d), readFileSync(fa(d), 'utf8').slice(0, 400)));
    const invalid = variant('invalid', (d) => {
      const bad = read<GateFragment>(fa(d));
      (bad.report!.cells[0] as { status: string }).status = 'great';
      writeFileSync(fa(d), JSON.stringify(bad));
    });
    const noYardstick = variant('no-yardstick', (d) => rmSync(join(d, 'yardstick.fragment.json')));
    const m1 = await merge('missing', [missing]);
    const m2 = await merge('corrupt', [corrupt]);
    const m3 = await merge('invalid', [invalid]);
    const m4 = await merge('no-yardstick', [noYardstick]);
    const m5 = await merge('no-yardstick-ok', [noYardstick], { gradeFixture: false });
    for (const m of [m1, m2, m3, m4]) assert.deepEqual([m.exitCode, m.report.verdict], [1, 'fail']);
    assert.match(m1.report.failures.join('\n'), new RegExp(`^${A}: fail: no fragment for this cell in .*fail closed$`, 'm'));
    assert.equal(m1.report.cells.find((c) => c.id === OFF)!.status, 'skipped', 'the other cell keeps its result');
    assert.match(
      m2.report.failures.join('\n'),
      new RegExp(`^${A}: fail: fragment \\S*corrupt/stdio_2025-11-25.fragment.json is unparseable \\(`, 'm'),
    );
    assert.match(
      m3.report.failures.join('\n'),
      new RegExp(
        `^${A}: fail: fragment \\S*invalid/stdio_2025-11-25.fragment.json fails the fragment schema \\(/report/cells/0/status`,
        'm',
      ),
    );
    assert.match(m4.report.failures.join('\n'), /^fixture-compliance: no yardstick fragment/m);
    assert.equal(m5.exitCode, 0, `--no-fixture-grade does not need it: ${m5.report.failures.join('; ')}`);
    assert.match(readFileSync(join(m1.out, 'summary.md'), 'utf8'), /❌ FAIL[\s\S]*\*\*stdio\/2025-11-25\*\*: no fragment for this cell/);
    // the CLI: red is exit 1 with the reason on stdout
    const r = await cli(['merge', missing, '--config', cfg, '--cells', `${A},${OFF}`, '--out', join(dir, 'merged-cli')]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /^gate merge FAIL: 2 fragment\(s\); 0 pass, 0 flaky, 1 fail, 1 skipped -> .*\n {2}stdio\/2025-11-25: fail: no fragment for this cell/,
    );
  });

  test('two fragments for one cell, another config, another proxy build: red; an extra fragment is listed', async () => {
    const other = join(dir, 'other.gate.config.json');
    const c = JSON.parse(readFileSync(cfg, 'utf8'));
    c.budgets.menu_tokens += 1;
    writeFileSync(other, JSON.stringify(c));
    const base = [frag('fa'), frag('fy')];
    const dup = await merge('dup', [...base, frag('fd'), frag('all')]);
    const otherCfg = await merge('other', [...base, frag('fd')], { configFile: other });
    const otherProxy = await merge('other-proxy', [...base, frag('fx')]);
    const extra = await merge('extra', [...base, frag('fd')], { cells: [A] });
    assert.equal(dup.exitCode, 1);
    assert.match(dup.report.failures.join('\n'), new RegExp(`^${A}: fail: 2 fragments for one cell \\(.*\\); fail closed$`, 'm'));
    assert.equal(otherCfg.exitCode, 1);
    assert.match(
      otherCfg.report.failures.join('\n'),
      new RegExp(
        `^${A}: fail: fragment .* comes from a different config \\(config digest sha256:[0-9a-f]{12}…, other.gate.config.json has sha256:[0-9a-f]{12}…\\); fail closed$`,
        'm',
      ),
    );
    assert.match(
      otherCfg.report.failures.join('\n'),
      /^fixture-compliance: fragment .*yardstick.fragment.json comes from a different config/m,
    );
    assert.equal(otherProxy.exitCode, 1);
    assert.match(
      otherProxy.report.failures.join('\n'),
      new RegExp(
        `^proxy-build: the fragments come from 2 different proxy builds: sha256:[0-9a-f]{12}… \\(${A}, yardstick\\), sha256:[0-9a-f]{12}… \\(${OFF}\\); fail closed$`,
        'm',
      ),
    );
    assert.deepEqual([extra.exitCode, extra.report.verdict], [0, 'pass']);
    assert.match(
      extra.report.advisories.join('\n'),
      new RegExp(`^extra fragment \\S*fd/sse_2026-07-28.fragment.json \\(${OFF}\\) is not part of this merge: ignored$`, 'm'),
    );
    assert.equal(extra.report.merged_from!.fragments.find((f) => f.id === OFF)!.status, 'extra');
  });

  test('could not run as asked: exit 2 with one line, nothing written', async () => {
    const [noDir, two] = await Promise.all([
      cli(['merge', join(dir, 'nope'), '--config', cfg, '--out', join(dir, 'merged-nope')]),
      cli(['--config', cfg, '--cells', `${A},${OFF}`, '--fragment', join(dir, 'f2')]),
    ]);
    for (const [r, re] of [
      [noDir, /^mcpgauge: gate merge: .*nope: not a folder$/],
      [two, /^mcpgauge: --fragment: name exactly one cell with --cells .* got 2$/],
    ] as const) {
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr.trim(), re);
    }
    assert.ok(!existsSync(join(dir, 'merged-nope')) && !existsSync(join(dir, 'f2')));
    const exit2 = (e: unknown) => (e as { exitCode?: number }).exitCode === 2;
    await assert.rejects(
      mergeFragments({ dirs: [], configFile: cfg }),
      (e) => exit2(e) && /name at least one fragment folder/.test(String(e)),
    );
    await assert.rejects(
      runFragment({ configFile: cfg, cells: ['yardstick'], gradeFixture: false, fragmentDir: join(dir, 'f3') }),
      (e) => exit2(e) && /cannot be combined with --no-fixture-grade/.test(String(e)),
    );
    await assert.rejects(
      runFragment({ configFile: cfg, cells: ['nope/1'], fragmentDir: join(dir, 'f3') }),
      (e) => exit2(e) && /unknown cell "nope\/1"/.test(String(e)),
    );
    assert.ok(!existsSync(join(dir, 'f3')));
  });
});

describe('digests', () => {
  test('canonical JSON ignores key order and whitespace, not values', () => {
    assert.equal(
      canonicalJson({ b: 1, a: [1, { d: 2, c: null }] }),
      canonicalJson(JSON.parse('{ "a": [1, {"c": null, "d": 2}],\n "b": 1 }')),
    );
    assert.notEqual(configDigest({ a: 1 }), configDigest({ a: 2 }));
  });

  test('a tree digest changes with one byte of one file, and a --proxy-build digest with it', () => {
    const d = mkdtempSync(join(tmpdir(), 'mcpgauge-digest-'));
    try {
      mkdirSync(join(d, 'gw', 'lib'), { recursive: true });
      writeFileSync(join(d, 'gw', 'main.js'), 'console.log(1)\n');
      writeFileSync(join(d, 'gw', 'lib', 'x.js'), 'export const x = 1;\n');
      const t1 = treeDigest(['gw'], d, '--proxy-build');
      assert.equal(t1.files, 2);
      assert.equal(treeDigest(['gw'], d, '--proxy-build').digest, t1.digest);
      const spec = { kind: 'command' as const, command: 'node gw/main.js --port {PORT}' };
      const cwd = process.cwd();
      process.chdir(d);
      let p1: string, p2: string;
      try {
        p1 = proxyDigest(spec, ['gw']).digest;
        writeFileSync(join(d, 'gw', 'lib', 'x.js'), 'export const x = 2;\n');
        p2 = proxyDigest(spec, ['gw']).digest;
      } finally {
        process.chdir(cwd);
      }
      assert.notEqual(treeDigest(['gw'], d, '--proxy-build').digest, t1.digest);
      assert.notEqual(p1, p2);
      assert.throws(() => treeDigest(['nope'], d, '--proxy-build'), /--proxy-build nope: cannot read \(ENOENT\)/);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});
