/**
 * Crediting a fault role (barrier, hang, crash) only with its fixture's own evidence: the lines the
 * fixture itself wrote to its log (its stderr, captured by the gate, never through the proxy under
 * test). A step marks the log before it sends the role's calls and looks for the role's line
 * afterwards. No line = the role's calls never reached the fixture that carries the role: the
 * gate's mapping of the role onto this proxy is wrong (a tool map, a single-upstream bridge fronting
 * something else, …). That is a harness error (exit 2), never a pass and never the proxy's fault.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { NameMatch } from '../adapter/index.ts';
import { harnessError } from './config.ts';
import { oneLine, sleep } from './calls.ts';
import type { Role } from './cell-fixtures.ts';
import type { CellContext } from './types.ts';

/** the line each role's fixture writes when the role's fault fires (pipeline/fixture/faults.ts) */
export const ROLE_LINES: Record<Exclude<Role, 'main'>, RegExp> = {
  barrier: /fault mode barrier: releasing \d+ waiting/,
  hang: /fault mode hang: blocking/,
  crash: /fault mode crash: exiting/,
};

export interface LogMark {
  role: Exclude<Role, 'main'>;
  file: string;
  offset: number;
}

export function markRoleLog(ctx: CellContext, role: Exclude<Role, 'main'>): LogMark {
  const file = ctx.fixtures.roles[role].log;
  let offset = 0;
  try {
    offset = statSync(file).size;
  } catch {
    /* not written yet */
  }
  return { role, file, offset };
}

/** the role's lines written since the mark (waits up to `waitMs` for the first, for piped stderr) */
export async function roleLines(mark: LogMark, waitMs = 1500): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    let text = '';
    try {
      text = readFileSync(mark.file).subarray(mark.offset).toString('utf8');
    } catch {
      /* missing = nothing */
    }
    const lines = text.split('\n').filter((l) => ROLE_LINES[mark.role].test(l));
    if (lines.length || Date.now() >= deadline) return lines;
    await sleep(100);
  }
}

/** What fixes a wrong role mapping, by what the run knows of the proxy. */
function remedy(ctx: CellContext): string {
  return ctx.fixtures.single
    ? 'Fix: if the proxy renames or hides the fixture tools, map them with --tool-map FILE (or the adapter flags of a --preset); docs/gate.md'
    : 'Fix: a proxy that fronts one upstream per instance needs --fronts TRANSPORT:1 (e.g. --fronts stdio:1) or a --preset that declares it (mcp-proxy, supergateway); one that renames tools needs --tool-map FILE; docs/gate.md';
}

/**
 * The role's evidence, or a harness error naming the mapping: `tool` is the gate's name for the
 * role's upstream tool, `m` how the proxy's name for it was found, `answered` what the proxy
 * answered to the role's calls (so a run that errs here shows whether they reached anything).
 */
export async function requireRoleEvidence(
  ctx: CellContext,
  step: string,
  mark: LogMark,
  tool: string,
  m: NameMatch | undefined,
  answered: string[] = [],
): Promise<string[]> {
  const lines = await roleLines(mark);
  if (lines.length) return lines;
  const rf = ctx.fixtures.roles[mark.role];
  const mapping = m ? `${tool} -> proxy tool ${JSON.stringify(m.name)} (${m.how})` : tool;
  throw harnessError(
    `${ctx.cell.id}: ${step}: harness error: the ${mark.role} role's calls (${mapping}) left no trace in the fixture that carries the role (${rf.name}${ctx.fixtures.single ? ", the single-upstream cell's one fixture" : ''}; ${basename(rf.log)} has no line matching ${ROLE_LINES[mark.role]} since the step began; the proxy answered ${answered.length ? answered.map((a, i) => `call ${i + 1}: ${oneLine(a, 200)}`).join('; ') : 'nothing yet'}): the mapping of the ${mark.role} role onto this proxy is wrong; nothing of this step is credited to or blamed on the proxy. ${remedy(ctx)}`,
  );
}
