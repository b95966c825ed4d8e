/** Shared helpers for the live-stage tests (not a test file itself). */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import { REPORT_SCHEMA_PATH } from '../../pipeline/report/validate.ts';
import type { LiveReport } from '../../pipeline/report/types.ts';
import { COMPONENT_LABELS } from '../../pipeline/live/spans.ts';

let validateLive: (((x: unknown) => boolean) & { errors?: unknown }) | undefined;

/** Validates a live section against `$defs/live` of the report schema (as report.json holds it: the per-query rows are in tables/per_query). */
export function assertLiveSchema(live: LiveReport): void {
  if (!validateLive) {
    const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ??
      Ajv2020Module) as unknown as typeof Ajv2020Module.default;
    const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true });
    const schema = JSON.parse(readFileSync(REPORT_SCHEMA_PATH, 'utf8'));
    validateLive = ajv.compile({ $defs: schema.$defs, $ref: '#/$defs/live' }) as never;
  }
  const ok = validateLive!(JSON.parse(JSON.stringify({ ...live, retrieval: live.retrieval.map(({ per_query: _rows, ...r }) => r) })));
  assert.ok(ok, `live section does not match the report schema: ${JSON.stringify(validateLive!.errors)?.slice(0, 800)}`);
}

/** Every ok response: components add up exactly to the total. */
export function assertComponentsSum(live: LiveReport): void {
  for (const r of live.responses.filter((x) => x.ok)) {
    const c = r.components!;
    assert.deepEqual(Object.keys(c), [...COMPONENT_LABELS]);
    const sum = Object.values(c).reduce((a, b) => a + b, 0);
    assert.equal(sum, r.total_tokens, `${r.query_id}/${r.detail}/${r.tokenizer}: components ${JSON.stringify(c)} != ${r.total_tokens}`);
  }
}

/** pids mentioned in log lines ("pid 1234"). */
export function pidsIn(lines: readonly string[]): number[] {
  return [...new Set(lines.flatMap((l) => [...l.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]))))];
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** pids of processes whose command line contains `needle` (Linux /proc). */
export function processesMentioning(needle: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8');
      if (cmd.includes(needle)) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Waits (up to `ms`) until none of `pids` is alive; returns the survivors. */
export async function waitDead(pids: readonly number[], ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}
