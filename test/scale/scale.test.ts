/**
 * Side by side and at scale, end to end through the CLI on real processes: direct and the
 * reference proxy in one report (interleaved), a scale sweep over fixture catalogs of real tool
 * definitions served in pages, fitted growth, the dashboard sections; a point past its deadline
 * is recorded as failed and the run goes on; bad flags are one line before any work.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Report } from '../../pipeline/report/types.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-scale-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const cli = (args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin/mcpgauge.mjs'), ...args], { encoding: 'utf8', timeout: 300_000 });
const FAST = [
  '--live',
  '--no-offline',
  '--embedded-servers',
  'fixture,memory,filesystem',
  '--runs',
  '1',
  '--warmup',
  '0',
  '--live-queries',
  '8',
  '--scale-queries',
  '6',
  '--bootstrap',
  '100',
  '--tokenizers',
  'cl100k_base',
  '--live-details',
  'full',
  '--no-lap',
];

test('--system direct --system reference --scale: one report with both systems side by side and the growth', () => {
  const out = join(dir, 'both');
  const r = cli(['bench', ...FAST, '--system', 'direct', '--system', 'reference', '--scale', '10,60', '--page-size', '7', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  assert.equal(rep.live, undefined);
  const [direct, ref] = rep.systems!;
  assert.equal(direct.name, 'direct');
  assert.equal(ref.name, 'reference');
  // same upstreams: direct's full menu is what the reference proxy's live block lists directly
  const dm = direct.direct!.menus[0];
  const rm = ref.live!.menus[0];
  assert.equal(dm.tool_count, rm.upstream_tool_count);
  assert.equal(dm.menu_tokens.value, rm.full_menu_tokens.value);
  assert.ok(rm.proxy_menu_tokens.value < dm.menu_tokens.value);
  assert.ok(ref.live!.retrieval[0].summary!.recall_at_5.ci95);
  // scale: every point measured; the catalog is paged (7 per page) yet fully listed
  const pts = rep.scale!.points;
  assert.equal(pts.length, 4);
  for (const p of pts) assert.ok(p.ok, JSON.stringify(p));
  const at = (s: string, n: number) => pts.find((p) => p.system === s && p.catalog_size === n)!;
  assert.equal(at('direct', 60).listed_tools, at('direct', 60).upstream_tools);
  assert.equal(at('direct', 60).upstream_tools - at('direct', 10).upstream_tools, 50);
  assert.ok(at('direct', 60).menu_tokens!.cl100k_base > 3 * at('direct', 10).menu_tokens!.cl100k_base);
  assert.equal(at('reference', 60).menu_tokens!.cl100k_base, at('reference', 10).menu_tokens!.cl100k_base);
  assert.ok(at('reference', 60).rss_mb! > 0 && at('reference', 60).ready_ms! > 0);
  assert.ok(at('reference', 60).break_even_calls!.cl100k_base! > at('reference', 10).break_even_calls!.cl100k_base!);
  const fit = (s: string, f: string) => rep.scale!.fits.find((x) => x.system === s && x.figure === f)!;
  assert.ok(
    fit('direct', 'menu_tokens').exponent > 0.7 && fit('direct', 'menu_tokens').exponent < 1.3,
    JSON.stringify(fit('direct', 'menu_tokens')),
  );
  assert.equal(fit('reference', 'menu_tokens').exponent, 0);
  assert.equal(rep.provenance['scale.fits'], 'computed');
  const html = readFileSync(join(out, 'dashboard.html'), 'utf8');
  for (const id of ['systems-compare', 'scale-fits', 'scale-points', 'scale-break-even']) assert.ok(html.includes(`id="${id}"`), id);
  assert.ok(html.includes('Systems side by side') && html.includes('Cost growth vs catalog size'));
});

test('--scale: a point past its deadline is recorded as failed with the reason; the run goes on', () => {
  const out = join(dir, 'late');
  const r = cli(['bench', ...FAST, '--scale', '10', '--point-timeout', '1', '--out', out]);
  assert.equal(r.status, 0, r.stderr);
  const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  assert.ok(rep.live, 'the single live stage still ran');
  assert.deepEqual(rep.scale!.points.map((p) => p.system).sort(), ['direct', 'reference']);
  for (const p of rep.scale!.points) {
    assert.equal(p.ok, false);
    assert.match(p.error!, /exceeded the per-point deadline of 1 ms/);
  }
  assert.deepEqual(rep.scale!.fits, []);
});

test('--system/--scale: bad values are one line, nothing written', () => {
  const out = join(dir, 'never');
  for (const [args, msg] of [
    [['--live', '--system', 'bogus'], /--system "bogus": unknown system spec/],
    [['--live', '--scale', '10,abc'], /--scale must be an integer >= 1, got "abc"/],
    [['--scale', '10'], /--scale needs --live/],
    // checked as parsed (commander Option argParser), even when no sweep runs
    [['--page-size', '0'], /--page-size must be an integer >= 1, got "0"/],
    [['--point-timeout', 'soon'], /--point-timeout must be an integer >= 1, got "soon"/],
    [['--live', '--system', 'direct', '--proxy-url', 'http://127.0.0.1:9/mcp'], /replace --proxy-url/],
  ] as [string[], RegExp][]) {
    const r = cli(['bench', ...args, '--out', out]);
    assert.notEqual(r.status, 0);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, msg);
  }
  assert.equal(existsSync(join(out, 'report.json')), false);
});
