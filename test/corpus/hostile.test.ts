/**
 * Hostile corpus bytes: invalid UTF-8 in a description is warned about in hygiene (count and
 * tool ids) instead of silently becoming U+FFFD; in a tool name it is an error that says
 * "invalid UTF-8"; a schema nested beyond MAX_JSON_DEPTH is a clear error, not a stack overflow.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadCorpus } from '../../pipeline/corpus/load.ts';
import { corpusHygiene } from '../../pipeline/corpus/hygiene.ts';
import { UserError } from '../../pipeline/types.ts';
import { tempDir } from './helpers.ts';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'mcpgauge.mjs');
const schema = { type: 'object', properties: { q: { type: 'string' } } };

/** A mcpproxy-v2 corpus file with raw bytes spliced in where `@@BAD@@` stands. */
function writeRaw(path: string, tools: object[], bad: Buffer): string {
  const text = JSON.stringify({ version: 'hostile-v1', tools });
  const [a, b] = text.split('@@BAD@@');
  writeFileSync(path, b === undefined ? Buffer.from(a) : Buffer.concat([Buffer.from(a), bad, Buffer.from(b)]));
  return path;
}

test('invalid UTF-8 in a description: hygiene counts it and names the tool; `corpus` prints a warning', async () => {
  const t = tempDir();
  try {
    const file = writeRaw(
      join(t.dir, 'bad-desc.json'),
      [
        { tool_id: 'srv:good', server: 'srv', tool: 'good', description: 'Fine text here, long enough.', schema },
        { tool_id: 'srv:broken', server: 'srv', tool: 'broken', description: 'Reads a file @@BAD@@ from disk.', schema },
      ],
      Buffer.from([0xff, 0xfe, 0xc3]),
    );
    const c = await loadCorpus(file);
    const h = corpusHygiene(c);
    assert.deepEqual(h.invalid_utf8, { count: 1, tool_ids: ['srv:broken'] });
    const r = spawnSync(process.execPath, [BIN, 'corpus', 'info', file], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /warning: corpus hostile-v1: 1 tool\(s\) hold invalid UTF-8 \(decoded as U\+FFFD\) in a description or schema: srv:broken/,
    );
  } finally {
    t.cleanup();
  }
});

test('invalid UTF-8 in a tool name: an error that says "invalid UTF-8" and names the field', async () => {
  const t = tempDir();
  try {
    const file = writeRaw(
      join(t.dir, 'bad-name.json'),
      [{ tool_id: 'srv:na@@BAD@@me', server: 'srv', tool: 'name', description: 'Something useful to do.', schema }],
      Buffer.from([0xe2, 0x28]),
    );
    // the tool field itself is broken too (same bytes): the message must not be a tool_id mismatch
    const file2 = join(t.dir, 'bad-name2.json');
    writeFileSync(
      file2,
      Buffer.concat([
        Buffer.from('{"version":"h2","tools":[{"tool_id":"srv:x'),
        Buffer.from([0xff]),
        Buffer.from('","server":"srv","tool":"x'),
        Buffer.from([0xff, 0xff]),
        Buffer.from('","description":"d","schema":{"type":"object"}}]}'),
      ]),
    );
    for (const f of [file, file2]) {
      await assert.rejects(
        loadCorpus(f),
        (e: Error) =>
          e instanceof UserError && /invalid UTF-8/.test(e.message) && !/does not equal/.test(e.message) && e.message.startsWith(f),
        `for ${f}`,
      );
    }
  } finally {
    t.cleanup();
  }
});

test('a schema nested 5000 levels deep is a clear error naming the file and the depth limit', async () => {
  const t = tempDir();
  try {
    // built as text: 5000 levels of {"type":"object","properties":{"x": ... }}
    const deep = `${'{"type":"object","properties":{"x":'.repeat(5000)}{"type":"string"}${'}}'.repeat(5000)}`;
    const file = writeRaw(
      join(t.dir, 'deep.json'),
      [{ tool_id: 'srv:deep', server: 'srv', tool: 'deep', description: 'Very deep schema tool.', schema: '@@BAD@@' }],
      Buffer.from(deep),
    );
    writeFileSync(file, readFileSync(file, 'utf8').replace(`"${deep}"`, deep));
    await assert.rejects(
      loadCorpus(file),
      (e: Error) => e instanceof UserError && /nested deeper than 64 levels/.test(e.message) && e.message.startsWith(file),
    );
  } finally {
    t.cleanup();
  }
});
