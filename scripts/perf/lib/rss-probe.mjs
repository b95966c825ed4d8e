// Preloaded by the bench-perf sections into a whole `mcpgauge` process (node --import): on exit
// it writes the process's peak RSS in KB (worker threads included) to $MCPGAUGE_PERF_RSS_FILE.
import { writeFileSync } from 'node:fs';
const out = process.env.MCPGAUGE_PERF_RSS_FILE;
if (out) process.on('exit', () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
