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
  // a second real run: systems side by side (direct, reference, and a command that exits at once,
  // so failed-system and failed-point shapes occur) plus a small scale sweep
  const sysArgs = ['--system', 'direct', '--system', 'reference', '--system', 'broken=cmd:node -e process.exit(3)', '--scale', '10,100', '--runs', '1', '--warmup', '1', '--live-queries', '12', '--scale-queries', '8', '--bootstrap', '200'];
  const out2 = path.join(out, 'systems');
  await $({ cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })`node bin/mcpgauge.mjs bench --live --no-offline ${sysArgs} --out ${out2}`;
  const sys = JSON.parse(fs.readFileSync(path.join(out2, 'report.json'), 'utf8').split(root).join('<repo>').split(tmpRoot()).join('<tmp>'));
  sys.meta.command_line = ['mcpgauge', 'bench', '--live', '--no-offline', ...sysArgs, '--out', '<tmp>'];
  sys.meta.git_commit = null;
  sys.meta.node_version = 'v20.0.0';
  const dest2 = path.join(root, 'test', 'data', 'report-systems.json');
  fs.writeFileSync(`${dest2}.tmp`, `${JSON.stringify(sys, null, 1)}\n`);
  fs.renameSync(`${dest2}.tmp`, dest2);
  console.log(`wrote ${path.relative(root, dest2)}`);
} catch (e) {
  process.exit(e.exitCode ?? 1);
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}

/** the system temp folder (paths under it differ per run) */
function tmpRoot() {
  return (process.env.TMPDIR || '/tmp').replace(/\/$/, '');
}
