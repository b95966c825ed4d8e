import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { buildProgram } from '../../pipeline/cli.ts';
import { tempDir, writeJson, liveFlat } from './helpers.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'mcpgauge.mjs');
const tmp = tempDir();
after(() => tmp.cleanup());

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const corpus = join(ROOT, 'datasets', 'corpus-npm4-v1.tools.json');
const golden = join(ROOT, 'datasets', 'golden-npm4-v1.json');

test('corpus CLI: validate, info, fetch, freeze refusal and --help, with one-line errors', async () => {
  const bad = writeJson(join(tmp.dir, 'bad.json'), liveFlat({ tool_count: 4 }));
  const mirror = join(tmp.dir, 'mirror');
  writeJson(join(mirror, 'livemcptool', 'tools.json'), liveFlat());
  const before = readFileSync(corpus, 'utf8');
  const mtime = statSync(corpus).mtimeMs;
  // a closed loopback port stands for "no network"
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  // two at a time: the machine is shared
  const [validate, info] = await Promise.all([
    run(['corpus', 'validate', corpus, '--golden', golden]),
    run(['corpus', 'info', corpus, '--json']),
  ]);
  const [invalid, fetchNoNet] = await Promise.all([
    run(['corpus', 'validate', bad, '--golden', golden, '--format', 'mcpgauge']),
    run(['corpus', 'fetch', '--cache', join(tmp.dir, 'cache-a'), '--timeout-ms', '1500'], { HF_ENDPOINT: `http://127.0.0.1:${port}` }),
  ]);
  const [fetchMirror, freezeAgain] = await Promise.all([
    run(['corpus', 'fetch', '--from', mirror, '--cache', join(tmp.dir, 'cache-b')]),
    run(['corpus', 'freeze', '--version', 'corpus-npm4-v1']),
  ]);

  assert.equal(validate.code, 0, validate.stderr);
  assert.equal(
    validate.stdout,
    'ok: corpus-npm4-v1 (mcpgauge): 37 tools, 4 servers, 37 with schema\nok: golden golden-npm4-v1: 72 queries, 141 labels (3: 70, 2: 16, 1: 35, 0: 20), 37/37 tools primary somewhere\n',
  );

  assert.equal(info.code, 0, info.stderr);
  const j = JSON.parse(info.stdout) as {
    corpus: { version: string; committed: boolean };
    tool_count: number;
    servers: Record<string, number>;
    hygiene: { duplicate_schemas: { distinct: number } };
  };
  assert.deepEqual(
    [j.corpus.version, j.corpus.committed, j.tool_count, j.servers],
    ['corpus-npm4-v1', true, 37, { everything: 13, filesystem: 14, memory: 9, 'sequential-thinking': 1 }],
  );
  assert.equal(j.hygiene.duplicate_schemas.distinct, 28);

  for (const r of [invalid, fetchNoNet, freezeAgain]) {
    assert.equal(r.code, 2, r.stderr); // could not run as asked
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^mcpgauge: [^\n]+\n$/, `one line on stderr: ${JSON.stringify(r.stderr)}`);
  }
  assert.match(invalid.stderr, /bad\.json: \$\.format: expected "mcpgauge-corpus"/);
  assert.match(fetchNoNet.stderr, /cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED .*no network and no mirror; pass --from DIR/);
  assert.match(freezeAgain.stderr, /corpus-npm4-v1\.tools\.json: already exists; frozen versions are immutable/);
  assert.equal(readFileSync(corpus, 'utf8'), before);
  assert.equal(statSync(corpus).mtimeMs, mtime);

  assert.equal(fetchMirror.code, 0, fetchMirror.stderr);
  assert.match(fetchMirror.stdout, /^livemcptool: cached .* \(3 tools, 2 servers, .*\ntoolret: skipped, not in mirror/);
});

test('corpus CLI: --help on every subcommand (in-process)', () => {
  const corpusCmd = buildProgram().commands.find((c) => c.name() === 'corpus');
  assert.ok(corpusCmd);
  const help = Object.fromEntries(corpusCmd.commands.map((c) => [c.name(), c.helpInformation()]));
  assert.deepEqual(Object.keys(help).sort(), ['fetch', 'freeze', 'freeze-results', 'info', 'validate']);
  for (const [name, text] of Object.entries(help)) assert.match(text, new RegExp(`^Usage: mcpgauge corpus ${name} `));
  assert.match(help.freeze, /--version <v>/);
  assert.match(help.freeze, /--with-fixture/);
  assert.match(help.fetch, /--from <dir>/);
  assert.match(help.validate, /--golden <path>/);
  assert.match(help.info, /--stub-pattern <regex\.\.\.>/);
  assert.match(help['freeze-results'], /--next-version/);
});
