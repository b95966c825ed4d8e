/**
 * Read named entries out of a zip archive held in memory (a Python wheel is a zip file):
 * the end-of-central-directory record gives the central directory, whose entries give each
 * member's method, sizes and local header offset; stored (0) and deflated (8) members are
 * supported, ZIP64 and encryption are not (a wheel of this size needs neither). Format facts
 * from PKWARE's APPNOTE.TXT (section 4.3).
 */
import { inflateRawSync } from 'node:zlib';
import { UserError } from '../types.ts';

const EOCD_SIG = 0x06054b50;
const CDH_SIG = 0x02014b50;
const LFH_SIG = 0x04034b50;

export function readZipEntries(zip: Buffer, names: readonly string[], where: string): Map<string, Buffer> {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--) {
    if (zip.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new UserError(`${where}: not a zip archive (no end-of-central-directory record)`);
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const want = new Set(names);
  const out = new Map<string, Buffer>();
  for (let n = 0; n < count && p + 46 <= zip.length; n++) {
    if (zip.readUInt32LE(p) !== CDH_SIG) throw new UserError(`${where}: corrupt zip central directory at byte ${p}`);
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const csize = zip.readUInt32LE(p + 20);
    const usize = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (!want.has(name)) continue;
    if (flags & 1) throw new UserError(`${where}: ${name} is encrypted`);
    if (zip.readUInt32LE(local) !== LFH_SIG) throw new UserError(`${where}: corrupt local header of ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + csize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw);
    else throw new UserError(`${where}: ${name} uses compression method ${method} (only stored and deflate are read)`);
    if (data.length !== usize) throw new UserError(`${where}: ${name} inflated to ${data.length} bytes, the directory says ${usize}`);
    out.set(name, data);
  }
  for (const n of names) if (!out.has(n)) throw new UserError(`${where}: has no member ${n}`);
  return out;
}
