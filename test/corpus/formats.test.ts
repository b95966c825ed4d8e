/** The corpus-format registry: every format file is listed once, sniffing is first-match in list order, the docs name every format. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { CORPUS_FORMAT_LIST } from '../../pipeline/corpus/formats/index.ts';
import { CORPUS_FORMATS, sniffJson } from '../../pipeline/corpus/load.ts';

const DIR = join(REPO_ROOT, 'pipeline', 'corpus', 'formats');

test('corpus formats: every file in formats/ exports one format and the registry lists each once', async () => {
  const listed = new Set<unknown>(CORPUS_FORMAT_LIST);
  assert.equal(listed.size, CORPUS_FORMAT_LIST.length);
  assert.equal(new Set(CORPUS_FORMAT_LIST.map((f) => f.format)).size, CORPUS_FORMAT_LIST.length, 'format names are unique');
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'types.ts');
  for (const f of files) {
    const mod = (await import(join(DIR, f))) as Record<string, unknown>;
    const formats = Object.values(mod).filter((v) => typeof v === 'object' && v !== null && 'format' in v && 'load' in v);
    assert.equal(formats.length, 1, `${f} exports one format`);
    assert.ok(listed.has(formats[0]), `${f}: its format is not listed in formats/index.ts`);
  }
  assert.equal(files.length, CORPUS_FORMAT_LIST.length);
  assert.deepEqual(
    CORPUS_FORMATS,
    ['auto', ...CORPUS_FORMAT_LIST.map((f) => f.format)],
    '--format choices: auto, then the registry in order',
  );
  for (const f of ['mcpgauge', 'mcpproxy', 'livemcptool', 'toolret', 'tools-list']) assert.ok(CORPUS_FORMATS.includes(f as never), f);
});

test('corpus formats: sniffing where two shapes meet (the earlier format wins, as before the registry)', () => {
  assert.equal(sniffJson({ format: 'mcpgauge-corpus', tool_count: 1, tools: [{ tool_id: 'a' }] }), 'mcpgauge');
  assert.equal(sniffJson({ server_count: 1, tools: [{ tool_id: 'a' }] }), 'livemcptool');
  assert.equal(sniffJson({ server_count: 1, tools: [{ name: 'a' }] }), 'livemcptool');
  assert.equal(sniffJson({ tools: [{ tool_id: 'a' }] }), 'mcpproxy');
  assert.equal(sniffJson({ tools: [{ name: 'a' }] }), 'tools-list');
  assert.equal(sniffJson([{ name: 'srv' }]), 'livemcptool');
  assert.equal(sniffJson({ tools: [] }), undefined);
});

test('corpus formats: the folder README names every registered format', () => {
  const readme = readFileSync(join(REPO_ROOT, 'pipeline', 'corpus', 'README.md'), 'utf8');
  for (const f of CORPUS_FORMAT_LIST)
    assert.ok(readme.includes(`\`${f.format}\``), `pipeline/corpus/README.md does not name format ${f.format}`);
});
