/** The --system kind registry: every kind file is listed, the report schema's kind enum is the registry's list, help and errors list every kind. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { SYSTEM_KINDS } from '../../pipeline/systems/kinds/index.ts';
import { parseSystemSpec, SYSTEM_SYNTAXES } from '../../pipeline/systems/spec.ts';
import { systemOptions } from '../../pipeline/cli/system-flags.ts';

const DIR = join(REPO_ROOT, 'pipeline', 'systems', 'kinds');
const REPORT_SCHEMA_PATH = join(REPO_ROOT, 'datasets', 'schemas', 'report.schema.json');

test('system kinds: every file in kinds/ exports one kind and SYSTEM_KINDS lists each once', async () => {
  const listed = new Set<unknown>(SYSTEM_KINDS);
  assert.equal(new Set(SYSTEM_KINDS.map((k) => k.kind)).size, SYSTEM_KINDS.length, 'kind names are unique');
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
  for (const f of files) {
    const mod = (await import(join(DIR, f))) as Record<string, unknown>;
    const kinds = Object.values(mod).filter((v) => typeof v === 'object' && v !== null && 'kind' in v && 'parse' in v && 'open' in v);
    assert.equal(kinds.length, 1, `${f} exports one kind`);
    assert.ok(listed.has(kinds[0]), `${f}: its kind is not listed in kinds/index.ts`);
  }
  assert.equal(files.length, SYSTEM_KINDS.length);
});

test('system kinds: the report schema enum ($defs/system_kind) is the registry, in order (the one extra line a new kind needs)', () => {
  const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8'));
  assert.deepEqual(
    schema.$defs.system_kind.enum,
    SYSTEM_KINDS.map((k) => k.kind),
  );
  // every kind field of the schema points at that one enum
  const text = readFileSync(REPORT_SCHEMA_PATH, 'utf8');
  assert.equal((text.match(/"enum": \["direct"/g) ?? []).length, 1);
});

test('system kinds: --help and the unknown-spec error list every kind, each SPEC goes to its own kind', () => {
  const help = systemOptions().find((o) => o.long === '--system')!.description;
  assert.equal(help, `measure this system side by side (repeatable): NAME=SPEC, SPEC = ${SYSTEM_KINDS.map((k) => k.syntax).join(' | ')}`);
  assert.ok(help.includes('direct | reference[:retriever=ID] | cmd:<command template> | url:<URL> | preset:NAME[,upstream=SERVER]'), help);
  assert.throws(
    () => parseSystemSpec('nope'),
    (e: Error) =>
      e.message === `--system "nope": unknown system spec "nope" (valid: ${SYSTEM_SYNTAXES.join(', ')}, each optionally NAME=...)`,
  );
  assert.deepEqual(
    SYSTEM_SYNTAXES,
    SYSTEM_KINDS.map((k) => k.syntax),
  );
  for (const k of SYSTEM_KINDS) {
    assert.ok(k.accepts(k.example) && k.example.startsWith(k.start), `${k.kind}: its example ${k.example} starts with ${k.start}`);
    assert.equal(parseSystemSpec(k.example).kind, k.kind);
    assert.equal(parseSystemSpec(`x=${k.example}`).kind, k.kind);
    assert.equal(parseSystemSpec(`x=${k.example}`).name, 'x');
  }
  // a value starting like a kind is not split at its first "=" (cmd templates carry NAME=value words)
  assert.equal(parseSystemSpec('cmd:A=1 node p.js').template, 'A=1 node p.js');
  assert.throws(() => parseSystemSpec('referencex=direct'), /unknown system spec "referencex=direct"/);
});

test('system kinds: the folder README names every kind', () => {
  const readme = readFileSync(join(REPO_ROOT, 'pipeline', 'systems', 'README.md'), 'utf8');
  for (const k of SYSTEM_KINDS) assert.ok(readme.includes(`\`${k.syntax}\``), `pipeline/systems/README.md does not name ${k.syntax}`);
});
