/**
 * The default offline report's figures stay put: a fresh offline run with the options of the
 * committed sample report (test/data/report.json, a real `bench --live` run made by
 * `make sample-report`) must reproduce its offline sections exactly. Only time fields may
 * differ between runs, and the offline sections hold none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOffline } from '../../pipeline/bench/offline.ts';
import { DEFAULT_CORPUS, DEFAULT_DISCOVERY_MENU, DEFAULT_GOLDEN, REPO_ROOT } from '../../pipeline/constants.ts';
import { buildSampleReport } from '../report/sample.ts';

test('a fresh default offline run reproduces every offline figure of the committed sample report', async () => {
  const sample = buildSampleReport();
  const opts = sample.meta.options as { bootstrap: { iterations: number; seed: number }; top_k: number; retrievers: string[] };
  const res = await runOffline({
    corpora: [{ path: DEFAULT_CORPUS, golden: DEFAULT_GOLDEN }, { path: DEFAULT_DISCOVERY_MENU }],
    discoveryMenu: DEFAULT_DISCOVERY_MENU,
    arms: 'all',
    tokenizers: 'all',
    bootstrap: opts.bootstrap,
    responseTopK: opts.top_k,
    retrievers: opts.retrievers,
  });
  // the sample stores the repository path as "<repo>"
  const fresh = JSON.parse(
    JSON.stringify({
      corpora: res.corpora,
      arms: res.arms,
      ranking_agreement: res.ranking_agreement,
      retrieval: res.retrieval,
      economics: res.economics,
    })
      .split(REPO_ROOT)
      .join('<repo>'),
  );
  assert.ok(fresh.retrieval.length > 0 && fresh.economics.break_even.length > 0);
  assert.deepEqual(fresh.corpora, sample.corpora);
  assert.deepEqual(fresh.arms, sample.arms);
  assert.deepEqual(fresh.ranking_agreement, sample.ranking_agreement);
  // costs (build/query wall time) are measured per run; every other retrieval field must match
  const noCosts = (rows: object[]) => rows.map((r) => ({ ...r, costs: undefined }));
  assert.ok(sample.retrieval.some((r) => 'costs' in r));
  assert.deepEqual(noCosts(fresh.retrieval), noCosts(sample.retrieval));
  assert.deepEqual(fresh.economics, sample.economics);
  assert.deepEqual(res.notes, sample.meta.notes!.slice(0, res.notes.length));
});
