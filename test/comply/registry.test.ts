/**
 * Catalog hygiene: every check file is registered, ids are unique, metadata is complete, every
 * prerequisite and probe exists, the prerequisite graph is acyclic, and every check names a
 * fixture break knob that exists (a check with no knob cannot be shown to fail: build error).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATALOG } from '../../pipeline/comply/checks/index.ts';
import { PROBES } from '../../pipeline/comply/gather/probes/index.ts';
import { topo } from '../../pipeline/comply/judge/judge.ts';
import { KNOBS } from '../../pipeline/fixture/breaks/index.ts';
import { complySchemaValidator } from '../../pipeline/comply/output/schema.ts';
import { CATEGORIES } from '../../pipeline/comply/types.ts';

const checksDir = fileURLToPath(new URL('../../pipeline/comply/checks/', import.meta.url));

describe('comply catalog registry', () => {
  it('every file under checks/ is in the catalog, once', () => {
    const files = readdirSync(checksDir)
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.slice(0, -3))
      .sort();
    const ids = CATALOG.map((c) => c.meta.id).sort();
    assert.deepEqual(ids, files, 'check id = file name, and every file is registered');
    assert.equal(new Set(ids).size, ids.length);
  });

  it('every check names an existing knob; every knob (but none) breaks some check', () => {
    const missing = CATALOG.filter((c) => !(c.meta.knob in KNOBS)).map((c) => `${c.meta.id} -> ${c.meta.knob}`);
    assert.deepEqual(missing, [], 'checks whose knob does not exist in pipeline/fixture/breaks/');
    const used = new Set(CATALOG.flatMap((c) => [c.meta.knob, ...(c.meta.moreKnobs ?? [])]));
    assert.deepEqual(
      CATALOG.flatMap((c) => (c.meta.moreKnobs ?? []).filter((k) => !(k in KNOBS))),
      [],
      'moreKnobs that do not exist',
    );
    const unused = Object.keys(KNOBS).filter((k) => k !== 'none' && k !== 'per-request' && !used.has(k));
    assert.deepEqual(unused, [], 'knobs no check claims');
  });

  it('prerequisites and probes exist; the prerequisite graph is acyclic', () => {
    const ids = new Set(CATALOG.map((c) => c.meta.id));
    const probes = new Set(PROBES.map((p) => p.id));
    for (const c of CATALOG) {
      for (const p of c.meta.prerequisites) assert.ok(ids.has(p), `${c.meta.id}: unknown prerequisite ${p}`);
      for (const p of c.meta.probes) assert.ok(probes.has(p), `${c.meta.id}: unknown probe ${p}`);
    }
    assert.equal(topo(CATALOG).length, CATALOG.length);
  });

  it('metadata is complete and matches the report schema (spec URL + our summary of the requirement)', () => {
    const v = complySchemaValidator();
    for (const c of CATALOG) {
      const m = c.meta;
      assert.match(m.spec.url, /^https:\/\/modelcontextprotocol\.io\/specification\/(2025-11-25|2026-07-28)\//, m.id);
      if (m.severity === 'best-practice')
        assert.match(m.spec.requirement, /MUST|SHOULD|MAY|best practice/i, `${m.id}: a best-practice check says so or cites a rule`);
      else
        assert.match(
          m.spec.requirement,
          /MUST|SHOULD|MAY|required|no normative keyword/,
          `${m.id}: the requirement names the normative word (or says it has none)`,
        );
      assert.ok(['direct', 'json-rpc', 'inferred'].includes(m.basis), `${m.id}: basis`);
      assert.ok(CATEGORIES.includes(m.category));
      assert.ok(m.fix.length > 10, `${m.id}: fix text`);
    }
    // a minimal report carrying every meta validates (one pool, as the report holds it, with nothing graded)
    const ungraded = () => ({
      score: null,
      grade: null,
      coverage: 0,
      required: { passed: 0, evaluated: 0 },
      optional: { passed: 0, evaluated: 0 },
      evaluated: 0,
      applicable: 0,
      uncapped: null,
      cap: null,
      capApplied: true,
      failingMust: [],
    });
    const rep = {
      schemaVersion: '2',
      tool: { name: 'mcpgauge comply', version: '0' },
      target: 'x',
      generatedAt: new Date(0).toISOString(),
      era: { choice: 'auto', detected: null, reason: 'r' },
      warnings: [],
      provenance: { kind: 'measured', method: 'm' },
      grading: { rule: 'r', capApplied: true, requirementText: 't' },
      runs: [
        {
          revision: '2026-07-28',
          wire: 'stdio',
          results: CATALOG.map((c) => ({ id: c.meta.id, status: 'pass', code: 'pass', detail: '', meta: c.meta })),
          conformance: ungraded(),
          security: ungraded(),
          categories: [],
          serverInfo: { name: null, version: null, capabilities: {} },
          warnings: [],
          durationMs: 0,
        },
      ],
    };
    assert.ok(v(rep), JSON.stringify(v.errors?.slice(0, 3)));
  });
});
