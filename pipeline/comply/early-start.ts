/**
 * `mcpgauge comply -- <server command>`: the server process is spawned as soon as the flags name
 * it, before the probes, checks and renderers load, so its boot (the longest wait of a short run)
 * overlaps that loading. Loads only the target parser and the stdio wire.
 * The target is parsed here once; a parse error is kept and thrown by the command at the point
 * where it parsed the target before. If a later flag turns out bad, the command stops the server
 * again before it exits 2 (nothing was sent to it and nothing is written).
 */
import { parseTarget, type Target, type TargetFlags } from './gather/server-target.ts';
import { StdioWire } from './wire/stdio.ts';

export interface EarlyStart {
  /** the parsed target, or what parsing threw */
  target: Target | { kind: 'error'; error: unknown };
  /** the stdio server, already starting */
  wire?: StdioWire;
}

export function targetFlags(o: Record<string, unknown>): TargetFlags {
  return {
    header: o.header as string[] | undefined,
    auth: o.auth as string | undefined,
    env: o.env as string[] | undefined,
    envFile: o.envFile as string | undefined,
    cwd: o.cwd as string | undefined,
  };
}

/** Parse the target and, for a stdio server that is to be probed, start it. */
export function startEarly(words: string[], o: Record<string, unknown>): EarlyStart | undefined {
  if (words[0] === 'benchmark' || o.list || o.replay || !words.length) return undefined;
  let target: Target;
  try {
    target = parseTarget(words, targetFlags(o));
  } catch (error) {
    return { target: { kind: 'error', error } };
  }
  const timeoutMs = Number(o.timeout);
  if (target.kind !== 'stdio' || !Number.isInteger(timeoutMs) || timeoutMs < 1) return { target };
  return { target, wire: new StdioWire(target, timeoutMs) };
}
