// A node:test reporter that writes, per test file, the wall time from its first to its last event
// (JSON lines to its destination). scripts/test.mjs prints the slowest files from it at the end,
// so the suite's cost is visible in every run, not only when someone profiles it.
export default async function* fileTimes(source) {
  const seen = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = Date.now();
    const t = seen.get(file);
    if (t) t.last = now;
    else seen.set(file, { first: now, last: now });
  }
  for (const [file, t] of seen) yield `${JSON.stringify({ file, ms: t.last - t.first })}\n`;
}
