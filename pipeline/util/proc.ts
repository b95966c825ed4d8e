/** Memory of a running process from /proc (Linux); null where /proc is not available. */
import { readFileSync } from 'node:fs';

export interface ProcessMemory {
  /** resident set size now, MiB */
  rss_mb: number;
  /** peak resident set size (VmHWM), MiB */
  peak_mb: number;
}

export function processMemory(pid: number): ProcessMemory | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (key: string): number | null => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  };
  const rss = kb('VmRSS');
  const hwm = kb('VmHWM');
  if (rss === null) return null;
  return { rss_mb: Math.round((rss / 1024) * 10) / 10, peak_mb: Math.round(((hwm ?? rss) / 1024) * 10) / 10 };
}
