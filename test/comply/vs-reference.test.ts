/**
 * docs/comply-vs-reference.md is checked against measurement. Always: its tables name real
 * checks and targets, and the mcpgauge failures it states are the live-checked deviation list of
 * real-servers.test.ts. When the reference prober is beside the checkout
 * (../shared/peers/mcp-compliance, see reference-prober.ts): it and `mcpgauge comply` run on each
 * of the four npm reference servers over stdio (2025-11-25), the reference's test ids are mapped
 * to mcpgauge check ids by the doc's check map, and the test fails on any reference test the map
 * does not name, any disagreement the doc does not list, and any row whose verdicts the
 * measurement contradicts. Without the peer folder those runs skip with the reason.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorProblem, loadAnchors } from '../../pipeline/comply/judge/anchors.ts';
import { CATALOG } from '../../pipeline/comply/checks/index.ts';
import { REAL_DEVIATIONS } from './real-deviations.ts';
import { ensureReference, REFERENCE_SERVERS, referenceSource, runComply, runReference, type ReferencePeer } from './reference-prober.ts';

const DOC = fileURLToPath(new URL('../../docs/comply-vs-reference.md', import.meta.url));
const TARGETS = Object.keys(REFERENCE_SERVERS);
const COLUMNS = ['target', 'mcpgauge check', 'mcpgauge', 'reference check', 'reference', 'conformance suite', 'requirement (our summary)'];
const MAP_COLUMNS = ['reference check', 'mcpgauge check', 'requirement (our summary)', 'spec'];
/** per prober run */
const DEADLINE_MS = 90_000;

interface Row {
  targets: string[];
  ours: string[];
  ourVerdict: string;
  theirs: string[];
  theirVerdict: string;
  table: 'disagreements' | 'agreements';
}
interface Doc {
  rows: Row[];
  /** reference test id -> the mcpgauge checks that test the same requirement (empty: none) */
  map: Map<string, string[]>;
}

const ids = (cell: string) => [...cell.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]);
/** the verdict word a cell starts with */
const VERDICTS = ['pass', 'fail', 'not graded', 'not run', '—'] as const;
type Verdict = (typeof VERDICTS)[number] | 'mixed';
const verdictOf = (cell: string): string => VERDICTS.find((v) => cell.startsWith(v)) ?? `unreadable verdict "${cell}"`;

export function parseDoc(text: string): Doc {
  const rows: Row[] = [];
  const map = new Map<string, string[]>();
  let table: Row['table'] | 'map' | null = null;
  let header: string[] | null = null;
  for (const line of text.split('\n')) {
    if (line.startsWith('## '))
      [table, header] = [
        /^## Disagreements/.test(line)
          ? 'disagreements'
          : /^## Agreements/.test(line)
            ? 'agreements'
            : /^## Check map/.test(line)
              ? 'map'
              : null,
        null,
      ];
    if (!table || !line.startsWith('|')) continue;
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    if (!header) {
      header = cells;
      for (const c of table === 'map' ? MAP_COLUMNS : COLUMNS) assert.ok(header.includes(c), `column "${c}" in the ${table} table`);
      continue;
    }
    if (cells.every((c) => /^-+$/.test(c))) continue;
    const col = (n: string) => cells[header!.indexOf(n)];
    if (table === 'map') {
      const [ref, ...more] = ids(col('reference check'));
      assert.ok(ref && !more.length, `check map: one reference id per row: ${line}`);
      assert.ok(!map.has(ref), `check map: ${ref} twice`);
      map.set(ref, ids(col('mcpgauge check')));
      continue;
    }
    rows.push({
      targets: col('target')
        .split(',')
        .map((t) => t.trim()),
      ours: ids(col('mcpgauge check')),
      ourVerdict: col('mcpgauge'),
      theirs: ids(col('reference check')),
      theirVerdict: col('reference'),
      table,
    });
  }
  return { rows, map };
}

const text = readFileSync(DOC, 'utf8');
const { rows, map } = parseDoc(text);
const known = new Set(CATALOG.map((c) => c.meta.id));
const failsOurs = (r: Row) => /^fail/.test(r.ourVerdict);

/** one verdict for a set of checks: theirs absent = not run, ours not pass/fail = not graded */
function combined(vs: Verdict[]): Verdict {
  if (!vs.length) return '—';
  return new Set(vs).size === 1 ? vs[0] : 'mixed';
}

/**
 * The comparison of one target's two reports against the doc: every problem as one line.
 * ours: check id -> status; theirs: reference test id -> passed.
 */
export function compare(target: string, ours: Map<string, string>, theirs: Map<string, boolean>, doc: Doc): string[] {
  const problems: string[] = [];
  const one = (id: string): Verdict => {
    const s = ours.get(id);
    return s === 'pass' || s === 'fail' ? s : 'not graded';
  };
  const ourV = (idList: string[]) => combined(idList.map(one));
  const theirV = (idList: string[]) => combined(idList.map((id) => (theirs.has(id) ? (theirs.get(id) ? 'pass' : 'fail') : 'not run')));
  const listed = doc.rows.filter((r) => r.targets.includes(target));
  for (const [id, passed] of theirs) {
    if (!doc.map.has(id)) {
      problems.push(`${target}: the reference ran ${id}, which the doc's check map does not name`);
      continue;
    }
    const mine = doc.map.get(id)!;
    const [o, t] = [ourV(mine), passed ? 'pass' : 'fail'];
    const agree = o === t || (passed && (o === 'not graded' || o === '—'));
    if (!agree && !listed.some((r) => r.table === 'disagreements' && r.theirs.includes(id)))
      problems.push(
        `${target}: ${id} (reference ${t}) vs ${mine.join(', ') || 'no mcpgauge check'} (mcpgauge ${o}) is not listed under Disagreements`,
      );
  }
  for (const [id, status] of ours)
    if (status === 'fail' && !listed.some((r) => r.ours.includes(id) && failsOurs(r)))
      problems.push(`${target}: mcpgauge fails ${id}, the doc does not account for it`);
  for (const r of listed) {
    const [o, t] = [ourV(r.ours), theirV(r.theirs)];
    if (o !== verdictOf(r.ourVerdict))
      problems.push(`${target}: the doc says mcpgauge ${verdictOf(r.ourVerdict)} on ${r.ours.join(', ')}, measured ${o}`);
    if (t !== verdictOf(r.theirVerdict))
      problems.push(`${target}: the doc says reference ${verdictOf(r.theirVerdict)} on ${r.theirs.join(', ') || '—'}, measured ${t}`);
    if (r.table === 'disagreements' && o === t)
      problems.push(`${target}: listed under Disagreements, but both sides measured ${o} (${r.ours.join(', ')})`);
  }
  return problems;
}

describe('docs/comply-vs-reference.md', () => {
  it('names real checks and the four targets; the check map names real checks', () => {
    assert.ok(rows.filter((r) => r.table === 'disagreements').length >= 5, 'disagreement rows');
    for (const r of rows) {
      for (const t of r.targets) assert.ok(TARGETS.includes(t), `unknown target ${t}`);
      assert.ok(r.ours.length, `a row without an mcpgauge check: ${JSON.stringify(r)}`);
      for (const id of r.ours) assert.ok(known.has(id), `${id} is not an mcpgauge check`);
    }
    for (const t of TARGETS)
      assert.ok(
        rows.some((r) => r.targets.includes(t)),
        `${t} has no row`,
      );
    assert.ok(map.size >= 40, `check map rows: ${map.size}`);
    for (const [ref, mine] of map) for (const id of mine) assert.ok(known.has(id), `check map: ${ref} -> ${id}, not an mcpgauge check`);
  });
  it('cites the spec by URL and anchor, each a section the anchors list records', () => {
    const anchors = loadAnchors();
    const urls = [...new Set([...text.matchAll(/https:\/\/modelcontextprotocol\.io\/specification\/[^\s)|]+/g)].map((m) => m[0]))];
    assert.ok(urls.length >= 10, `spec URLs: ${urls.length}`);
    assert.deepEqual(
      urls.map((u) => [u, anchorProblem(u, anchors)]).filter(([, p]) => p),
      [],
    );
  });
  it('states the mcpgauge failures real-servers.test.ts checks live, and accounts for each', () => {
    for (const t of TARGETS) {
      const failing = new Set(REAL_DEVIATIONS[t]);
      for (const r of rows.filter((x) => x.targets.includes(t) && failsOurs(x)))
        for (const id of r.ours) assert.ok(failing.has(id), `${t}: the doc says mcpgauge fails ${id}, the deviation list does not`);
      for (const id of failing)
        assert.ok(
          rows.some((r) => r.targets.includes(t) && r.ours.includes(id) && failsOurs(r)),
          `${t}: mcpgauge fails ${id}, the doc does not account for it`,
        );
    }
  });
  it('the comparison finds a planted disagreement and a contradicted row', () => {
    const ours = new Map([
      ['error-invalid-cursor', 'fail'],
      ['tools-list', 'pass'],
    ]);
    const theirs = new Map([
      ['error-invalid-cursor', true],
      ['tools-list', false],
      ['made-up-test', true],
    ]);
    const doc: Doc = {
      map: new Map([
        ['error-invalid-cursor', ['error-invalid-cursor']],
        ['tools-list', ['tools-list']],
      ]),
      rows: [
        {
          targets: ['x'],
          ours: ['error-invalid-cursor'],
          ourVerdict: 'fail',
          theirs: ['error-invalid-cursor'],
          theirVerdict: 'fail',
          table: 'disagreements',
        },
      ],
    };
    assert.deepEqual(compare('x', ours, theirs, doc), [
      'x: tools-list (reference fail) vs tools-list (mcpgauge pass) is not listed under Disagreements',
      "x: the reference ran made-up-test, which the doc's check map does not name",
      'x: the doc says reference fail on error-invalid-cursor, measured pass',
    ]);
  });
});

const src = referenceSource();
describe('measured: the reference prober and mcpgauge comply on the npm reference servers over stdio', {
  concurrency: 2,
  timeout: 300_000,
  skip: src
    ? false
    : 'the reference prober is not beside this checkout (../shared/peers/mcp-compliance; MCPGAUGE_PEERS_SRC overrides); see ../shared/peers/README.md',
}, () => {
  let peer: ReferencePeer;
  const dirs: string[] = [];
  before(async () => {
    peer = await ensureReference(src!);
  });
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const seed = () => {
    const d = mkdtempSync(join(tmpdir(), 'comply-vsref-'));
    dirs.push(d);
    writeFileSync(join(d, 'a.txt'), 'hello\n');
    return d;
  };
  for (const target of TARGETS) {
    it(target, async (t) => {
      // one prober after the other, each on its own server process and seed folder
      const theirs = await runReference(peer, REFERENCE_SERVERS[target](seed()), DEADLINE_MS);
      const ours = await runComply(REFERENCE_SERVERS[target](seed()), '2025-11-25', DEADLINE_MS);
      const run = ours.report.runs[0];
      assert.equal(run.revision, '2025-11-25');
      assert.equal(theirs.report.specVersion, '2025-11-25');
      const failed = theirs.report.tests.filter((x) => !x.passed).map((x) => x.id);
      const ourFails = run.results.filter((x) => x.status === 'fail').map((x) => x.id);
      const graded = run.results.filter((x) => x.status === 'pass' || x.status === 'fail').length;
      t.diagnostic(
        `reference ${theirs.report.toolVersion}: ${theirs.report.grade} (${theirs.report.score}), ${theirs.report.tests.length} tests, ${failed.length} failed [${failed.join(', ')}], wall ${theirs.run.wallMs.toFixed(0)} ms`,
      );
      t.diagnostic(
        `mcpgauge comply: ${run.conformance.grade} (${run.conformance.score}), ${graded} graded of ${run.results.length}, ${ourFails.length} failed [${ourFails.join(', ')}], wall ${ours.run.wallMs.toFixed(0)} ms`,
      );
      const problems = compare(
        target,
        new Map(run.results.map((x) => [x.id, x.status])),
        new Map(theirs.report.tests.map((x) => [x.id, x.passed])),
        { rows, map },
      );
      assert.deepEqual(problems, [], 'docs/comply-vs-reference.md disagrees with the measured verdicts');
    });
  }
});
