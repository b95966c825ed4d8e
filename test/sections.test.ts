/**
 * The section list (pipeline/sections.ts) is the one registry: every section file, under
 * pipeline/report/sections/ or beside its producer (pipeline/<folder>/section.ts), exports sections
 * that are either in REPORT_SECTIONS or belong to another document (bound where it is rendered).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPORT_SECTIONS } from '../pipeline/sections.ts';

const PIPELINE = resolve(import.meta.dirname, '..', 'pipeline');
/** sections of other documents: the gate report (mcpgauge report) and a comply report (comply --format html, bench --comply) */
const OTHER_DOCUMENTS = new Set(['gate', 'compliance']);

test("every exported section is listed in REPORT_SECTIONS or is another document's", async () => {
  const files = [
    ...readdirSync(join(PIPELINE, 'report', 'sections'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(PIPELINE, 'report', 'sections', f)),
    ...readdirSync(PIPELINE)
      .map((d) => join(PIPELINE, d, 'section.ts'))
      .filter((f) => existsSync(f)),
  ];
  assert.ok(files.length >= REPORT_SECTIONS.length, `${files.length} section files`);
  const listed = new Set(REPORT_SECTIONS);
  const found: string[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(f).href)) as Record<string, unknown>;
    for (const [name, v] of Object.entries(mod)) {
      const s = v as { id?: unknown; build?: unknown };
      if (!s || typeof s !== 'object' || typeof s.id !== 'string' || typeof s.build !== 'function') continue;
      found.push(s.id);
      assert.ok(
        listed.has(v as never) || OTHER_DOCUMENTS.has(s.id),
        `${f}: ${name} (${s.id}) is not in pipeline/sections.ts REPORT_SECTIONS`,
      );
    }
  }
  for (const s of REPORT_SECTIONS) assert.ok(found.includes(s.id), `${s.id}: listed but no section file exports it`);
  for (const id of OTHER_DOCUMENTS) assert.ok(found.includes(id), `${id}: no section file exports it`);
});
