/**
 * Reading one tensor out of a safetensors file: 8 bytes little-endian header length N, N bytes
 * of JSON header ({name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__"?: {...}}),
 * then the data buffer the offsets index (format facts from the safetensors documentation).
 * F16 tensors are widened to F32 (IEEE 754 half: 1 sign, 5 exponent, 10 mantissa bits).
 */
import { endianness } from 'node:os';
import { UserError } from '../types.ts';

export interface TensorInfo {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

export function safetensorsHeader(buf: Buffer, where: string): { header: Record<string, TensorInfo>; dataStart: number } {
  if (buf.length < 8) throw new UserError(`${where}: too short for a safetensors file`);
  const n = Number(buf.readBigUInt64LE(0));
  if (n <= 0 || 8 + n > buf.length || n > 100_000_000) throw new UserError(`${where}: bad safetensors header length ${n}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(buf.toString('utf8', 8, 8 + n));
  } catch (e) {
    throw new UserError(`${where}: safetensors header is not JSON (${(e as Error).message})`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new UserError(`${where}: safetensors header is not an object`);
  const header: Record<string, TensorInfo> = {};
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (k === '__metadata__') continue;
    const t = v as TensorInfo;
    if (!t || typeof t.dtype !== 'string' || !Array.isArray(t.shape) || !Array.isArray(t.data_offsets) || t.data_offsets.length !== 2) {
      throw new UserError(`${where}: tensor ${JSON.stringify(k)} has no dtype/shape/data_offsets`);
    }
    header[k] = t;
  }
  return { header, dataStart: 8 + n };
}

let F16_TABLE: Float32Array | undefined;
/** all 65,536 half-precision values as F32, indexed by the 16 bits; made on first use (not at import: the CLI's command setup imports this module) */
export function f16Table(): Float32Array {
  if (F16_TABLE) return F16_TABLE;
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const s = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    t[h] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
  }
  F16_TABLE = t;
  return t;
}

export function f16ToF32(h: number): number {
  return f16Table()[h & 0xffff];
}

/**
 * The tensor `name` as its raw half-precision values (row-major), checked against the expected
 * dtype and shape: a view on `buf` where the data is 2-byte aligned on a little-endian machine
 * (no copy), else a copy. f16Table maps a value to F32; a caller that reads a few rows of a large
 * table (the static model: the rows of a text's tokens) widens only those.
 */
export function readF16Bits(buf: Buffer, name: string, shape: readonly number[], where: string): Uint16Array {
  const { header, dataStart } = safetensorsHeader(buf, where);
  const t = header[name];
  if (!t) throw new UserError(`${where}: no tensor ${JSON.stringify(name)} (has ${Object.keys(header).join(', ')})`);
  if (t.dtype !== 'F16') throw new UserError(`${where}: tensor ${name} is ${t.dtype}, expected F16`);
  if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i]))
    throw new UserError(`${where}: tensor ${name} has shape [${t.shape}], expected [${shape}]`);
  const count = shape.reduce((a, b) => a * b, 1);
  const [begin, end] = t.data_offsets;
  if (end - begin !== count * 2 || dataStart + end > buf.length)
    throw new UserError(`${where}: tensor ${name} data_offsets [${begin}, ${end}] do not fit ${count} F16 values in the file`);
  const at = buf.byteOffset + dataStart + begin;
  if (at % 2 === 0 && endianness() === 'LE') return new Uint16Array(buf.buffer, at, count);
  const out = new Uint16Array(count);
  for (let i = 0; i < count; i++) out[i] = buf.readUInt16LE(dataStart + begin + 2 * i);
  return out;
}

/** the tensor `name` as F32 (row-major), checked against the expected dtype and shape */
export function readF16Tensor(buf: Buffer, name: string, shape: readonly number[], where: string): Float32Array {
  const bits = readF16Bits(buf, name, shape, where);
  const table = f16Table();
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = table[bits[i]];
  return out;
}
