import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync, readdirSync, writeFileSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { freezeCorpus, nextFreeVersion, writeExclusiveAtomic } from '../../pipeline/corpus/freeze.ts';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { canonicalJson } from '../../pipeline/corpus/canonical.ts';
import { UserError } from '../../pipeline/types.ts';
import { tempDir } from './helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const COMMITTED = join(ROOT, 'datasets', 'corpus-npm4-v1.tools.json');
const tmp = tempDir();
after(() => tmp.cleanup());

test('freeze boots the four npm reference servers and reproduces the committed corpus', async () => {
  const lines: string[] = [];
  const r = await freezeCorpus({ version: 'corpus-npm4-v1', outDir: join(tmp.dir, 'a'), log: (l) => lines.push(l) });
  assert.deepEqual(
    r.servers.map((s) => s.name),
    ['filesystem', 'memory', 'sequential-thinking', 'everything'],
  );
  assert.ok(r.servers.every((s) => s.tool_count > 0));
  const fresh = await loadCorpus(r.path);
  const committed = await loadCorpus(COMMITTED);
  assert.deepEqual(
    fresh.tools.map((t) => t.tool_id),
    committed.tools.map((t) => t.tool_id),
  );
  assert.ok(fresh.tools.some((t) => t.tool_id === 'filesystem:read_text_file' && t.inputSchema));
  assert.ok(
    lines.some((l) => /^freeze: memory: 9 tools$/.test(l)),
    lines.join('\n'),
  );

  const freshText = readFileSync(r.path, 'utf8');
  const committedText = readFileSync(COMMITTED, 'utf8');
  assert.ok(!freshText.includes(tmp.dir) && !freshText.includes('/tmp/'), 'run-specific temp paths must not leak into the file');
  const meta = JSON.parse(committedText) as { generated_from: { servers: Array<{ package: string; package_version: string }> } };
  const same = meta.generated_from.servers.every(
    (s) => JSON.parse(readFileSync(join(ROOT, 'node_modules', s.package, 'package.json'), 'utf8')).version === s.package_version,
  );
  if (same) {
    // same package versions -> byte-identical file (the freeze is deterministic)
    assert.equal(freshText, committedText);
  } else {
    // packages moved on: ids must still match; the committed file stays valid, a refresh is a new version
    assert.notEqual(canonicalJson(fresh.tools), '');
  }
});

test('freeze refuses to overwrite an existing version, before booting anything', async () => {
  const dir = join(tmp.dir, 'b');
  const path = join(dir, 'corpus-npm4-v1.tools.json');
  writeExclusiveAtomic(path, 'previous bytes\n');
  // every server boot logs "freeze: <name> (<package>@<version>)" first: no log line = nothing booted
  const logged: string[] = [];
  await assert.rejects(
    freezeCorpus({ version: 'corpus-npm4-v1', outDir: dir, withFixture: true, log: (m) => logged.push(m) }),
    (e: unknown) =>
      e instanceof UserError &&
      /corpus-npm4-v1\.tools\.json: already exists; frozen versions are immutable, choose a new version \(e\.g\. --version corpus-npm4-v2\)/.test(
        e.message,
      ),
  );
  assert.deepEqual(logged, [], 'refusal must not boot servers');
  assert.equal(readFileSync(path, 'utf8'), 'previous bytes\n');
  assert.throws(() => writeExclusiveAtomic(path, 'new'), /already exists/);
  assert.deepEqual(readdirSync(dir), ['corpus-npm4-v1.tools.json'], 'no temp files left behind');
  await assert.rejects(freezeCorpus({ version: 'Corpus V1', outDir: dir }), /--version "Corpus V1": must match/);
});

test('nextFreeVersion picks the next unused -vN', () => {
  const dir = join(tmp.dir, 'c');
  assert.equal(nextFreeVersion(dir, 'corpus-npm4'), 'corpus-npm4-v1');
  writeExclusiveAtomic(join(dir, 'corpus-npm4-v1.tools.json'), '{}');
  writeExclusiveAtomic(join(dir, 'corpus-npm4-v3.tools.json'), '{}');
  writeExclusiveAtomic(join(dir, 'corpus-npm4-fixture-v7.tools.json'), '{}');
  assert.equal(nextFreeVersion(dir, 'corpus-npm4'), 'corpus-npm4-v4');
  assert.equal(nextFreeVersion(dir, 'corpus-npm4-fixture'), 'corpus-npm4-fixture-v8');
});

test('CLI: corpus freeze --with-fixture --next-version adds the fixture server', () => {
  const dir = join(tmp.dir, 'd');
  writeFileSync(join(tmp.dir, 'marker'), '');
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'mcpgauge.mjs'), 'corpus', 'freeze', '--with-fixture', '--next-version', '--out-dir', dir],
    { encoding: 'utf8', timeout: 120_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /^froze corpus-npm4-fixture-v1: \d+ tools from filesystem 14, memory 9, sequential-thinking 1, everything 13, fixture \d+ -> /,
  );
  const data = JSON.parse(readFileSync(join(dir, 'corpus-npm4-fixture-v1.tools.json'), 'utf8')) as {
    tools: Array<{ tool_id: string; server: string }>;
    generated_from: { servers: Array<{ name: string; command: string }> };
  };
  const fx = data.tools.filter((t) => t.server === 'fixture');
  assert.ok(fx.length > 0);
  assert.ok(fx.every((t) => t.tool_id.startsWith('fixture:')));
  const cmd = data.generated_from.servers.find((s) => s.name === 'fixture')?.command ?? '';
  assert.ok(!cmd.includes(ROOT), `absolute repo path leaked: ${cmd}`);
  assert.ok(statSync(join(dir, 'corpus-npm4-fixture-v1.tools.json')).size > 1000);
});
