#!/usr/bin/env node
// `make screenshot`: docs/img/dashboard.png, the README's picture of the dashboard. Renders the
// committed sample report (test/data/report.json, a real run: `make sample-report`) with
// `mcpgauge report`, opens it in headless Debian Chromium (playwright-core, /usr/bin/chromium;
// no browser is ever downloaded) with every non-file request blocked, and saves the first screen.
// Exit 0 written, 2 could not run (no Chromium, render failed), with one line saying why.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sampleBenchDir } from './lib/sample-bench.mjs';

const root = resolve(import.meta.dirname, '..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const REPORT = join(root, 'test', 'data', 'report.json');
const OUT = join(root, 'docs', 'img', 'dashboard.png');
const VIEWPORT = { width: 1280, height: 800 };

if (!existsSync(CHROMIUM)) {
  console.error(`screenshot: no Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium; or set CHROMIUM=path)`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), 'mcpgauge-screenshot-'));
let context;
let code = 0;
try {
  const html = join(work, 'dashboard.html');
  execFileSync(
    process.execPath,
    [join(root, 'bin', 'mcpgauge.mjs'), 'report', '--bench', sampleBenchDir(root, work), '--results', work, '--out', html],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const { chromium } = await import('playwright-core');
  context = await chromium.launchPersistentContext(join(work, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: VIEWPORT,
  });
  const url = pathToFileURL(html).href;
  const page = await context.newPage();
  await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()));
  await page.goto(url, { waitUntil: 'load' });
  // the page draws each chart when its figure comes into view: wait for the first screen's
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('figure.chart:not(.nodata)')]
        .filter((f) => f.getBoundingClientRect().top < innerHeight)
        .every((f) => f.classList.contains('drawn') || f.classList.contains('failed')),
    undefined,
    { timeout: 10_000 },
  );
  const tmp = `${OUT}.tmp.png`;
  mkdirSync(join(root, 'docs', 'img'), { recursive: true });
  await page.screenshot({ path: tmp, fullPage: false });
  renameSync(tmp, OUT);
  console.log(
    `wrote ${relative(root, OUT)} (${Math.round(statSync(OUT).size / 1024)} KiB, ${VIEWPORT.width}x${VIEWPORT.height}, from ${relative(root, REPORT)})`,
  );
} catch (e) {
  console.error(`screenshot: ${e.message.split('\n')[0]}`);
  code = 2;
} finally {
  await context?.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
