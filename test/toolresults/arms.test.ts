import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadResultFixtures } from '../../pipeline/toolresults/fixture-file.ts';
import { RESULT_ARMS, resolveResultArms, getResultArm } from '../../arms/result-registry.ts';
import { renderChecked, runResultArms } from '../../pipeline/toolresults/arm-rows.ts';
import { resolveTokenizers, getTokenizer } from '../../pipeline/tokens/tokenizer.ts';
import { classifyPayload, whyNotTabular } from '../../arms/tabular.ts';
import type { ResultArm } from '../../arms/result-types.ts';

const SHIPPED = join(import.meta.dirname, '..', '..', 'datasets', 'results-reference-v1.json');
const set = loadResultFixtures(SHIPPED);

test('tabular rule: uniform arrays of flat objects only', () => {
  assert.equal(
    classifyPayload([
      { a: 1, b: 'x' },
      { b: 'y', a: 2 },
    ]),
    'tabular',
  );
  assert.equal(classifyPayload([{ a: null }, { a: true }]), 'tabular');
  assert.match(whyNotTabular([{ a: 1 }])!, /fewer than 2/);
  assert.match(whyNotTabular([{ a: 1 }, { b: 1 }])!, /different key set/);
  assert.match(whyNotTabular([{ a: [1] }, { a: [2] }])!, /nested/);
  assert.match(whyNotTabular([{ a: 1 }, 3])!, /not an object/);
  assert.match(whyNotTabular([{}, {}])!, /no keys/);
  assert.match(whyNotTabular({ rows: [] })!, /not an array \(object\)/);
  assert.match(whyNotTabular('text')!, /not an array \(string\)/);
});

test('shipped fixtures: enough of each class, labels agree with the rule', () => {
  const tab = set.fixtures.filter((f) => f.payload_class === 'tabular');
  const non = set.fixtures.filter((f) => f.payload_class === 'non_tabular');
  assert.ok(tab.length >= 5, `tabular fixtures: ${tab.length}`);
  assert.ok(non.length >= 5, `non-tabular fixtures: ${non.length}`);
  for (const f of set.fixtures) assert.equal(classifyPayload(f.payload), f.payload_class, f.id);
  // every shipped server contributed
  assert.deepEqual([...new Set(set.fixtures.map((f) => f.server))].sort(), [
    'everything',
    'filesystem',
    'fixture',
    'memory',
    'sequential-thinking',
  ]);
});

for (const id of RESULT_ARMS) {
  test(`round trip: ${id} on every shipped fixture`, () => {
    const arm = getResultArm(id);
    let checked = 0;
    for (const f of set.fixtures) {
      const r = renderChecked(arm, f.payload, f.payload_class);
      if (id === 'csv_when_tabular' && f.payload_class === 'non_tabular') {
        assert.equal(r.ok, null, f.id);
        assert.match(r.skip!, /^not tabular: /, f.id);
        continue;
      }
      assert.equal(r.skip, undefined, `${f.id}: skipped: ${r.skip}`);
      assert.equal(r.ok, true, `${f.id}: ${r.error}`);
      checked++;
    }
    assert.ok(checked >= 5, `${id} checked ${checked} fixtures`);
  });
}

test("json arm reproduces the servers' own text where they pretty-print", () => {
  const json = getResultArm('json');
  const pretty = set.fixtures.filter((f) => f.returned.text_is_pretty_json === true);
  assert.ok(pretty.length >= 10, `pretty-printed fixtures: ${pretty.length}`);
  for (const f of pretty) assert.equal(Buffer.byteLength(json.render(f.payload), 'utf8'), f.returned.text_bytes, f.id);
});

test('csv: strings that would read back as numbers, booleans, null keep their type; quotes and commas survive', () => {
  const csv = getResultArm('csv_when_tabular');
  const payload = [
    { s: '42', b: 'true', e: '', n: null, q: 'say "hi", ok', num: -1.5e-7, t: false, lead: '007' },
    { s: 'x', b: 'false', e: 'y', n: 3, q: 'line\nbreak', num: 0, t: true, lead: ' 1' },
  ];
  const r = renderChecked(csv, payload, 'tabular');
  assert.equal(r.ok, true, r.error);
  assert.match(r.text!, /^s,b,e,n,q,num,t,lead\n"42","true","",,/);
});

test('runner: a lossy arm is reported per fixture and left out of savings', () => {
  const lossy: ResultArm = {
    meta: { id: 'drop_last_key', description: 'test arm that forgets one field' },
    skipReason: () => null,
    render: (p) => JSON.stringify(p),
    decode: (t) => {
      const v = JSON.parse(t) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const keys = Object.keys(v);
        delete (v as Record<string, unknown>)[keys[keys.length - 1]];
      }
      return v;
    },
  };
  const run = runResultArms(set, [...resolveResultArms(['json']), lossy], [getTokenizer('cl100k_base')]);
  const rt = run.round_trip.find((x) => x.arm === 'drop_last_key')!;
  const objects = set.fixtures.filter(
    (f) => f.payload !== null && typeof f.payload === 'object' && !Array.isArray(f.payload) && Object.keys(f.payload).length > 0,
  );
  assert.deepEqual(
    rt.lossy_fixtures,
    objects.map((f) => f.id),
  );
  const rows = run.rows.filter((r) => r.arm === 'drop_last_key' && r.round_trip === false);
  assert.equal(rows.length, objects.length);
  for (const r of rows) {
    assert.equal(r.savings_vs_json_pct, null);
    assert.match(r.round_trip_error!, /became missing/);
  }
  const all = run.summary.find((s) => s.arm === 'drop_last_key' && s.payload_class === 'all')!;
  assert.equal(all.lossy_n, objects.length);
  assert.equal(all.n, set.fixtures.length - objects.length);
});

test('runner: TOON beats compact JSON on tabular fixtures, loses on irregular ones (both tokenizers)', () => {
  const run = runResultArms(set, resolveResultArms('all'), resolveTokenizers('all'));
  for (const tk of ['cl100k_base', 'o200k_base'] as const) {
    const sum = (arm: string, cls: string) => run.summary.find((s) => s.arm === arm && s.tokenizer === tk && s.payload_class === cls)!;
    assert.ok(sum('toon', 'tabular').total_tokens < sum('json_compact', 'tabular').total_tokens, `${tk}: tabular`);
    assert.ok(sum('csv_when_tabular', 'tabular').total_tokens < sum('toon', 'tabular').total_tokens, `${tk}: csv vs toon`);
    // irregular: arrays of objects whose keys differ or nest (entities with observation lists, events, resource links)
    for (const id of ['memory:create_entities/seed', 'filesystem:read_text_file/events', 'everything:get-resource-links/five']) {
      const tok = (arm: string) => run.rows.find((r) => r.arm === arm && r.tokenizer === tk && r.fixture_id === id)!.tokens!;
      assert.ok(tok('toon') > tok('json_compact'), `${tk}: ${id}: toon ${tok('toon')} vs compact ${tok('json_compact')}`);
    }
  }
});
