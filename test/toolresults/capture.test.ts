import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadResultFixtures, parseResultFixtures } from '../../pipeline/toolresults/fixture-file.ts';
import { payloadOf } from '../../pipeline/toolresults/capture.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'mcpgauge.mjs');
const SHIPPED = join(ROOT, 'datasets', 'results-reference-v1.json');
const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-results-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test('freeze-results: two real captures are byte-identical, reproduce the shipped fixtures, never overwrite', {
  timeout: 300_000,
}, async () => {
  const a = await run(['corpus', 'freeze-results', '--out-dir', dir]);
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /froze results-reference-v1: \d+ results \(\d+ tabular, \d+ non_tabular\)/);
  const b = await run(['corpus', 'freeze-results', '--out-dir', dir]);
  assert.equal(b.code, 0, b.stderr);
  assert.match(b.stdout, /froze results-reference-v2:/);
  const v1 = readFileSync(join(dir, 'results-reference-v1.json'), 'utf8');
  const v2 = readFileSync(join(dir, 'results-reference-v2.json'), 'utf8');
  assert.equal(v2.replace('"results-reference-v2"', '"results-reference-v1"'), v1);
  // nothing run-specific leaks into the file
  assert.doesNotMatch(v1, new RegExp(tmpdir().replace(/[/\\.]/g, '\\$&') + '/mcpgauge-'));
  assert.doesNotMatch(v1, /GMT[+-]\d{4}/);
  assert.doesNotMatch(v1, new RegExp(ROOT.replace(/[/\\.]/g, '\\$&')));
  // drift: the shipped file is what the installed servers give today (a new capture is a new version)
  const shipped = loadResultFixtures(SHIPPED);
  const fresh = loadResultFixtures(join(dir, 'results-reference-v1.json'));
  assert.equal(
    fresh.fixtures_sha256,
    shipped.fixtures_sha256,
    'shipped result fixtures drifted from a fresh capture; freeze a new version',
  );
  // refuse to overwrite: one line, exit 2 (could not run as asked), file untouched
  const c = await run(['corpus', 'freeze-results', '--out-dir', dir, '--version', 'results-reference-v1']);
  assert.equal(c.code, 2);
  assert.match(c.stderr, /results-reference-v1\.json: already exists; result fixture versions are immutable/);
  assert.equal(c.stderr.trim().split('\n').length, 1);
  assert.equal(readFileSync(join(dir, 'results-reference-v1.json'), 'utf8'), v1);
  const d = await run(['corpus', 'freeze-results', '--out-dir', dir, '--version', 'Bad Name']);
  assert.equal(d.code, 2);
  assert.match(d.stderr, /--version "Bad Name": must match/);
});

test('fixture file validation: edits, wrong labels, duplicates are one-line errors naming the path', () => {
  const good = JSON.parse(readFileSync(SHIPPED, 'utf8'));
  const f = join(dir, 'results-edit-v1.json');
  const check = (mutate: (d: any) => void, re: RegExp) => {
    const d = structuredClone(good);
    d.version = 'results-edit-v1';
    mutate(d);
    writeFileSync(f, JSON.stringify(d));
    assert.throws(
      () => loadResultFixtures(f),
      (e: Error) => re.test(e.message) && !e.message.includes('\n'),
    );
  };
  check((d) => (d.fixtures[0].payload = 'edited'), /\$\.fixtures_sha256: does not match the fixtures/);
  const tab = good.fixtures.findIndex((x: any) => x.payload_class === 'tabular');
  check(
    (d) => (d.fixtures[tab].payload_class = 'non_tabular'),
    new RegExp(`\\$\\.fixtures\\[${tab}\\]\\.payload_class: labelled non_tabular but the tabular rule gives tabular`),
  );
  check((d) => (d.fixtures[1].id = d.fixtures[0].id), /\$\.fixtures\[1\]\.id: duplicate fixture id/);
  check((d) => (d.tabular_count = 99), /\$\.tabular_count: is 99 but the fixtures give \d+/);
  check((d) => (d.fixtures = []), /\$\.fixtures: must be a non-empty array/);
  check((d) => (d.fixtures[0].payload_from = 'guess'), /payload_from: must be one of/);
  writeFileSync(f, '{"format": "mcpgauge-results",');
  assert.throws(() => loadResultFixtures(f), /malformed JSON/);
  assert.throws(
    () => parseResultFixtures('results-x-v1.json', { ...good, version: 'results-other-v3' }),
    /\$\.version: "results-other-v3" differs from the file name stem "results-x-v1"/,
  );
});

test('payload rule: JSON text, plain text, non-text blocks', () => {
  assert.deepEqual(payloadOf({ content: [{ type: 'text', text: '[{"a":1},{"a":2}]' }] }).payload, [{ a: 1 }, { a: 2 }]);
  assert.equal(payloadOf({ content: [{ type: 'text', text: '[{"a":1},{"a":2}]' }] }).returned.text_is_pretty_json, false);
  assert.equal(payloadOf({ content: [{ type: 'text', text: '42' }] }).from, 'text');
  const mixed = payloadOf({
    content: [
      { type: 'text', text: 'x' },
      { type: 'resource_link', uri: 'demo://a', name: 'a' },
    ],
  });
  assert.equal(mixed.from, 'content');
  assert.deepEqual(mixed.returned.content_types, ['text', 'resource_link']);
});
