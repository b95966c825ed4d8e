/**
 * The offline stage counting the second tokenizer in a worker thread gives exactly the numbers
 * of the single-thread run; worker errors surface like main-thread ones; MCPGAUGE_THREADS is checked.
 */
import { REPO_ROOT as ROOT } from '../../pipeline/constants.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { runOffline, threadsFromEnv, type OfflineOptions } from '../../pipeline/bench/offline.ts';
import { startCountWorker } from '../../pipeline/tokens/worker_client.ts';
import { getTokenizer } from '../../pipeline/tokens/tokenizer.ts';
import { UserError } from '../../pipeline/types.ts';
import { DEFAULT_DISCOVERY_MENU, DEFAULT_GOLDEN } from '../../pipeline/constants.ts';

const NPM4 = join(ROOT, 'datasets', 'corpus-npm4-v1.tools.json');

const opts = (parallel: boolean): OfflineOptions => ({
  corpora: [{ path: NPM4, golden: DEFAULT_GOLDEN }],
  discoveryMenu: DEFAULT_DISCOVERY_MENU,
  arms: 'all',
  tokenizers: 'all',
  bootstrap: { iterations: 50, seed: 3 },
  responseTopK: 5,
  parallel,
  // the default only hands scopes of 2M+ characters to the worker; force it on this small corpus
  parallelMinChars: 0,
});

test('offline stage: small corpora stay on one thread by default (no second V8 heap)', async () => {
  const r = await runOffline({ ...opts(true), parallelMinChars: undefined, arms: ['baseline_json'] });
  assert.equal(r.threads, 1);
});

test('offline stage: parallel (worker thread) and single-thread runs are identical', async () => {
  const one = await runOffline(opts(false));
  const two = await runOffline(opts(true));
  // the single-thread run is the reference: check it carries real numbers under both tokenizers
  const base = one.arms.find((a) => a.arm === 'baseline_json')!;
  assert.deepEqual(Object.keys(base.by_tokenizer), ['cl100k_base', 'o200k_base']);
  assert.ok(base.by_tokenizer.o200k_base.total_tokens.value > 1000);
  assert.equal(one.economics.break_even.length, 2 * one.arms.filter((a) => !a.skipped).length);
  assert.ok(one.retrieval.some((r) => 'metrics' in r));
  assert.equal(one.threads, 1);
  assert.equal(two.threads, 2);
  assert.deepEqual(two.arms, one.arms);
  assert.deepEqual(two.ranking_agreement, one.ranking_agreement);
  // costs are wall-clock measurements of each run; every other field must be identical
  const noCosts = (rows: typeof one.retrieval) => rows.map((r) => ({ ...r, costs: undefined }));
  assert.deepEqual(noCosts(two.retrieval), noCosts(one.retrieval));
  assert.deepEqual(two.economics, one.economics);
  assert.deepEqual(two.notes, one.notes);
  // the worker counted o200k: a direct main-thread count of the baseline listing agrees
  const { loadCorpus } = await import('../../pipeline/corpus/load.ts');
  const { getArm } = await import('../../arms/registry.ts');
  const corpus = await loadCorpus(NPM4);
  assert.equal(
    two.arms.find((a) => a.arm === 'baseline_json')!.by_tokenizer.o200k_base.total_tokens.value,
    getTokenizer('o200k_base').count(getArm('baseline_json').renderListing(corpus.tools)),
  );
});

test('count worker: an error in the worker is the same one-line error as on the main thread', async () => {
  let mainErr: unknown;
  try {
    getTokenizer('p50k_nope');
  } catch (e) {
    mainErr = e;
  }
  assert.ok(mainErr instanceof UserError);
  const w = startCountWorker();
  try {
    assert.deepEqual(await w.count('cl100k_base', ['hello world', '']), [2, 0]);
    await assert.rejects(w.count('p50k_nope', ['x']), (e: unknown) => e instanceof UserError && e.message === (mainErr as Error).message);
    // the worker is terminated after an error: later jobs fail instead of hanging
    await assert.rejects(w.count('cl100k_base', ['x']), UserError);
  } finally {
    await w.close();
  }
});

test('MCPGAUGE_THREADS: 1 forces one thread; a bad value is a one-line error naming it', async () => {
  assert.equal(threadsFromEnv({}), undefined);
  assert.equal(threadsFromEnv({ MCPGAUGE_THREADS: '1' }), 1);
  assert.equal(threadsFromEnv({ MCPGAUGE_THREADS: '2' }), 2);
  assert.throws(
    () => threadsFromEnv({ MCPGAUGE_THREADS: 'two' }),
    (e: unknown) => e instanceof UserError && /MCPGAUGE_THREADS.*"two"/.test(e.message),
  );
  assert.throws(() => threadsFromEnv({ MCPGAUGE_THREADS: '0' }), UserError);
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'bin/mcpgauge.mjs'), 'bench', '--out', join(ROOT, '.tmp', 'never-written'), '--bootstrap', '10'],
    {
      encoding: 'utf8',
      env: { ...process.env, MCPGAUGE_THREADS: 'abc' },
      timeout: 120_000,
    },
  );
  assert.notEqual(r.status, 0);
  const lines = r.stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('mcpgauge:'));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /MCPGAUGE_THREADS must be a positive integer .*"abc"/);
});
