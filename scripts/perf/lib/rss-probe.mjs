// Preloaded by the bench-perf sections into a whole `mcpgauge` process (node --import): on exit
// it writes {"max_rss_kb", "cpu_user_s", "cpu_system_s"} of the process (worker threads
// included) to $MCPGAUGE_PERF_RSS_FILE. CPU seconds say how much work was done when a loaded
// machine stretches the wall time.
import { writeFileSync } from 'node:fs';
const out = process.env.MCPGAUGE_PERF_RSS_FILE;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(out, JSON.stringify({ max_rss_kb: u.maxRSS, cpu_user_s: u.userCPUTime / 1e6, cpu_system_s: u.systemCPUTime / 1e6 }));
  });
}
