// A node:test reporter that writes, per test file, the summed duration of its top-level tests and
// suites (JSON lines to its destination; top-level tests of one file run one after another, so the
// sum is the file's wall time less its process start). Event arrival times cannot be used: the
// runner holds back the events of later files to keep the output in file order. scripts/test.mjs
// prints the slowest files from it at the end, so the suite's cost is visible in every run.
export default async function* fileTimes(source) {
  const ms = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data;
    if (!file || nesting !== 0) continue;
    ms.set(file, (ms.get(file) ?? 0) + (details?.duration_ms ?? 0));
  }
  for (const [file, total] of ms) yield `${JSON.stringify({ file, ms: Math.round(total) })}\n`;
}
