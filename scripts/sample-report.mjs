#!/usr/bin/env zx
// `make sample-report`: regenerates test/data/report.json, the report the renderer, validator
// and table tests read. It is a real run: the default offline profile plus the live stage
// against the embedded proxy, with the reference proxy's menu as an extra corpus without a
// golden set (so not-scorable rows occur). Machine-specific strings (the repository path) are
// replaced by "<repo>"; only time fields (generated_at, latency) change between runs.
// Regenerate after changing a producer; never edit the file by hand.
import { $, fs, path, tmpdir } from 'zx';
$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const out = tmpdir();
try {
  await $({ cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })`node bin/mcpgauge.mjs bench --live --extra-corpus datasets/proxy-menu-v1.tools.json --out ${out}`;
  const text = fs.readFileSync(path.join(out, 'report.json'), 'utf8').split(root).join('<repo>');
  const report = JSON.parse(text);
  report.meta.command_line = ['mcpgauge', 'bench', '--live', '--extra-corpus', 'datasets/proxy-menu-v1.tools.json', '--out', '<tmp>'];
  report.meta.git_commit = null;
  report.meta.node_version = 'v20.0.0';
  const dest = path.join(root, 'test', 'data', 'report.json');
  fs.writeFileSync(`${dest}.tmp`, `${JSON.stringify(report, null, 1)}\n`);
  fs.renameSync(`${dest}.tmp`, dest);
  console.log(`wrote ${path.relative(root, dest)}`);
} catch (e) {
  process.exit(e.exitCode ?? 1);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
