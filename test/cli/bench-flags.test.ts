/**
 * Small bench flags: `bench --no-live` runs directly (not only through make), and
 * `--allow-version-mismatch` accepts a golden set made for another version of the same tool set
 * (refused without it, with a line naming the flag).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCPGAUGE_BIN, tempDir } from '../proxy/helpers.ts';
import { DEFAULT_CORPUS, DEFAULT_GOLDEN } from '../../pipeline/constants.ts';

const t = tempDir('bench-flags');
after(() => t.cleanup());

function bench(args: string[]): Promise<{ code: number; stderr: string }> {
  const base = [
    'bench',
    '--arms',
    'baseline_json',
    '--tokenizers',
    'cl100k_base',
    '--bootstrap',
    '10',
    '--retriever',
    'bm25',
    '--result-fixtures',
    'none',
  ];
  return new Promise((res) =>
    execFile(process.execPath, [MCPGAUGE_BIN, ...base, ...args], { timeout: 120_000, maxBuffer: 32 << 20 }, (e, _o, stderr) =>
      res({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stderr }),
    ),
  );
}

test('bench --no-live --allow-version-mismatch: a golden set of another corpus version, refused without the flag', async () => {
  const corpus = JSON.parse(readFileSync(DEFAULT_CORPUS, 'utf8'));
  const v9 = t.write('corpus-npm4-v9.tools.json', { ...corpus, version: 'corpus-npm4-v9' });
  const refused = await bench(['--no-live', '--corpus', v9, '--golden', DEFAULT_GOLDEN, '--out', join(t.dir, 'a')]);
  assert.notEqual(refused.code, 0);
  assert.match(
    refused.stderr,
    /corpus_version mismatch: golden is for corpus-npm4-v1, corpus is corpus-npm4-v9 \(--allow-version-mismatch/,
  );
  const ok = await bench(['--no-live', '--corpus', v9, '--golden', DEFAULT_GOLDEN, '--allow-version-mismatch', '--out', join(t.dir, 'b')]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stderr, /recall@5 \d\.\d{3} MRR/);
  assert.doesNotMatch(ok.stderr, /live stage/, '--no-live: no live stage');
});
