/**
 * The compiled-validator cache of util/schema.ts compileSchemaFile, in a cache folder outside the
 * package (as an installed package's ~/.cache/mcpgauge): the first process compiles the report
 * schema and keeps its standalone code; the next ones run that code (ajv's compiler never loads)
 * with the same verdicts, and keep V8's code cache beside it. Real processes, each with its own
 * MCPGAUGE_CACHE_DIR (CACHE_ROOT is read once at start).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../pipeline/constants.ts';

const SCHEMA = join(REPO_ROOT, 'datasets', 'schemas', 'report.schema.json');
const SAMPLE = join(REPO_ROOT, 'test', 'data', 'report.json');

test('a cache outside the package: compiled once, then run from the cache (no ajv compiler) with the same verdicts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-ajvcache-'));
  try {
    const cache = join(dir, 'cache');
    const script = join(dir, 'check.mts');
    writeFileSync(
      script,
      `import { createRequire } from 'node:module';\n` +
        `import { readFileSync } from 'node:fs';\n` +
        `import { compileSchemaFile } from ${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'pipeline', 'util', 'schema.ts')).href)};\n` +
        `const validate = compileSchemaFile(${JSON.stringify(SCHEMA)});\n` +
        `const good = JSON.parse(readFileSync(${JSON.stringify(SAMPLE)}, 'utf8'));\n` +
        `const ok = validate(good);\n` +
        `const bad = validate({ ...good, report_version: 'x' });\n` +
        `const compiler = Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/ajv/dist/compile/'));\n` +
        `console.log(JSON.stringify({ ok, bad, errors: (validate.errors ?? []).length, compiler }));\n`,
    );
    const run = () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', script], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, MCPGAUGE_CACHE_DIR: cache },
      });
      assert.equal(r.status, 0, r.stderr.slice(-800));
      return JSON.parse(r.stdout.trim().split('\n').pop()!) as { ok: boolean; bad: boolean; errors: number; compiler: boolean };
    };
    const first = run();
    assert.deepEqual({ ok: first.ok, bad: first.bad, compiler: first.compiler }, { ok: true, bad: false, compiler: true }, 'compiled');
    assert.ok(first.errors > 0);
    const files = readdirSync(join(cache, 'ajv'));
    assert.equal(files.filter((f) => f.endsWith('.cjs')).length, 1, files.join(' '));
    const second = run();
    assert.deepEqual(second, { ...first, compiler: false }, 'the cached code ran, with the same verdicts and errors');
    // V8's code cache of that code, kept beside it for this node
    assert.ok(
      readdirSync(join(cache, 'ajv')).some((f) => f.endsWith(`.${process.version}-${process.arch}.v8`)),
      readdirSync(join(cache, 'ajv')).join(' '),
    );
    assert.deepEqual(run(), second);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
