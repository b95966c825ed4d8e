/** Error-text scanners shared by the leak checks. */
import type { View } from './evidence.ts';

/** message + data of every JSON-RPC error the server sent, with where it came from */
export function errorTexts(v: View): Array<{ where: string; text: string }> {
  const out: Array<{ where: string; text: string }> = [];
  for (const { ex, msg } of v.responses()) {
    const e = msg.error as { message?: unknown; data?: unknown } | undefined;
    if (!e || typeof e !== 'object') continue;
    out.push({
      where: v.requestMethod(ex) ?? ex.probe,
      text: `${String(e.message ?? '')} ${e.data === undefined ? '' : JSON.stringify(e.data)}`,
    });
  }
  return out;
}

export const STACK =
  /\bat [\w.<>$]+ \((?:file:\/\/|\/|[A-Za-z]:\\)[^)]*:\d+:\d+\)|\n\s+at \S+ \(|Traceback \(most recent call last\)|\bnode_modules[\\/]/;
export const INTERNAL_IP =
  /\b(?:10\.\d{1,3}\.\d{1,3}\.\d{1,3}|192\.168\.\d{1,3}\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3}|169\.254\.\d{1,3}\.\d{1,3})\b/;
