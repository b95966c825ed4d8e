/**
 * bench-perf section "dashboard" (issue 31): the default dashboard under Lighthouse, desktop and
 * mobile presets. The dashboard is the one `make screenshot` draws: `mcpgauge report` of the
 * committed sample report (test/data/report.json, a real run of the default offline profile plus
 * the live stage). It is served over 127.0.0.1 HTTP (a plain node server, no compression) and
 * audited with Lighthouse 12.2.3 (13.x needs Node 22) driving the machine's Chromium
 * (CHROME_PATH, default /usr/bin/chromium; headless, no sandbox). Lighthouse is installed on first
 * use with npm into <cache root>/tools/lighthouse (a tool, not a dependency: package.json and
 * node_modules are untouched); no browser is ever downloaded. Printed per preset: performance,
 * accessibility and best-practices scores, DOM elements, bytes, first contentful paint, total
 * blocking time, largest contentful paint, style and layout time. Printed, never asserted
 * (goal: desktop performance >= 0.9, accessibility and best practices 1.0, <= 5,000 DOM
 * elements, <= 1.5 MB). PERF_DASHBOARD=file.html audits that file instead (a before/after pair).
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CACHE_ROOT } from '../../pipeline/constants.ts';
import { sampleBenchDir } from '../lib/sample-bench.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'mcpgauge.mjs');
const LIGHTHOUSE_VERSION = '12.2.3';
const TOOL_DIR = join(CACHE_ROOT, 'tools', 'lighthouse');
const LIGHTHOUSE_CLI = join(TOOL_DIR, 'node_modules', 'lighthouse', 'cli', 'index.js');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PRESETS = ['desktop', 'mobile'] as const;

/** Lighthouse 12.2.3 in the cache, installed with npm on first use; its CLI's path. */
function ensureLighthouse(): string {
  const pkg = join(TOOL_DIR, 'node_modules', 'lighthouse', 'package.json');
  if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).version === LIGHTHOUSE_VERSION) return LIGHTHOUSE_CLI;
  mkdirSync(TOOL_DIR, { recursive: true });
  // its own package.json, so npm resolves this folder as the project and touches nothing else
  if (!existsSync(join(TOOL_DIR, 'package.json')))
    writeFileSync(join(TOOL_DIR, 'package.json'), '{"name":"mcpgauge-tool-lighthouse","private":true}\n');
  console.log(`installing lighthouse@${LIGHTHOUSE_VERSION} into ${TOOL_DIR} (npm, first use) ...`);
  const t0 = performance.now();
  const r = spawnSync(
    'npm',
    ['install', '--prefix', TOOL_DIR, '--no-audit', '--no-fund', '--loglevel=error', `lighthouse@${LIGHTHOUSE_VERSION}`],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      // puppeteer-core is a dependency: never let anything fetch a browser
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1', PUPPETEER_SKIP_CHROMIUM_DOWNLOAD: '1' },
      timeout: 600_000,
    },
  );
  if (r.status !== 0) throw new Error(`npm install lighthouse@${LIGHTHOUSE_VERSION} exited ${r.status ?? r.signal}`);
  console.log(`installed in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return LIGHTHOUSE_CLI;
}

/** Serve one file at / on 127.0.0.1 (an ephemeral port), as text/html, uncompressed. */
function serve(file: string): Promise<{ server: Server; url: string }> {
  const body = readFileSync(file);
  const server = createServer((req, res) => {
    if (req.url === '/' || req.url === '/dashboard.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': 'no-store' });
      res.end(body);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      ok({ server, url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/dashboard.html` });
    }),
  );
}

interface Audit {
  numericValue?: number;
  details?: { items?: { group?: string; duration?: number }[] };
}
interface Lhr {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, Audit>;
  runtimeError?: { message: string };
}

/** One Lighthouse run (the CLI in its own process, our server answering) -> its result. */
function lighthouse(cli: string, url: string, preset: (typeof PRESETS)[number], out: string): Promise<Lhr> {
  const args = [
    cli,
    url,
    '--output=json',
    `--output-path=${out}`,
    '--quiet',
    '--only-categories=performance,accessibility,best-practices',
    '--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync',
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
  ];
  // asynchronous: the server answering the audit lives in this process
  return new Promise((ok, fail) => {
    execFile(
      process.execPath,
      args,
      { env: { ...process.env, CHROME_PATH: CHROME }, timeout: 300_000, maxBuffer: 16 << 20 },
      (err, _stdout, stderr) => {
        if (err)
          return fail(new Error(`lighthouse ${preset} failed: ${String(stderr).trim().split('\n').slice(-3).join(' | ') || err.message}`));
        const lhr = JSON.parse(readFileSync(out, 'utf8')) as Lhr;
        if (lhr.runtimeError) return fail(new Error(`lighthouse ${preset}: ${lhr.runtimeError.message}`));
        ok(lhr);
      },
    );
  });
}

const score = (l: Lhr, c: string) => (l.categories[c]?.score ?? NaN).toFixed(2);
const ms = (l: Lhr, a: string) => `${Math.round(l.audits[a]?.numericValue ?? NaN).toLocaleString('en-US')} ms`;

function styleLayoutMs(l: Lhr): number {
  return (l.audits['mainthread-work-breakdown']?.details?.items ?? [])
    .filter((i) => i.group === 'styleLayout')
    .reduce((s, i) => s + (i.duration ?? 0), 0);
}

async function main(): Promise<void> {
  if (!existsSync(CHROME)) {
    console.log(`dashboard: skipped, no Chromium at ${CHROME} (Debian: apt-get install -y chromium; or set CHROME_PATH)`);
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-perf-dashboard-'));
  let server: Server | undefined;
  try {
    const html = process.env.PERF_DASHBOARD ? resolve(process.env.PERF_DASHBOARD) : join(tmp, 'dashboard.html');
    if (!process.env.PERF_DASHBOARD) {
      execFileSync(process.execPath, [BIN, 'report', '--bench', sampleBenchDir(ROOT, tmp), '--results', tmp, '--out', html], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    }
    const file = statSync(html).size;
    console.log(
      `dashboard: ${process.env.PERF_DASHBOARD ? html : `mcpgauge report --bench test/data/report.json`} (${(file / 1e6).toFixed(2)} MB), Lighthouse ${LIGHTHOUSE_VERSION}, Chromium ${CHROME}`,
    );
    const cli = ensureLighthouse();
    const served = await serve(html);
    server = served.server;
    for (const preset of PRESETS) {
      const l = await lighthouse(cli, served.url, preset, join(tmp, `${preset}.json`));
      const dom = l.audits['dom-size']?.numericValue ?? NaN;
      const bytes = l.audits['total-byte-weight']?.numericValue ?? NaN;
      console.log(
        `${preset.padEnd(7)}: performance ${score(l, 'performance')}, accessibility ${score(l, 'accessibility')}, best practices ${score(l, 'best-practices')}; ` +
          `${dom.toLocaleString('en-US')} DOM elements, ${(bytes / 1e6).toFixed(2)} MB; first paint ${ms(l, 'first-contentful-paint')}, ` +
          `blocking ${ms(l, 'total-blocking-time')}, largest paint ${ms(l, 'largest-contentful-paint')}, style and layout ${Math.round(styleLayoutMs(l)).toLocaleString('en-US')} ms`,
      );
    }
    console.log(
      'goal: desktop performance >= 0.90, accessibility and best practices 1.00, <= 5,000 DOM elements, <= 1.5 MB (printed, not asserted)',
    );
  } finally {
    server?.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
