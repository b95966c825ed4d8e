/**
 * Debian's Chromium for the dashboard tests (playwright-core drives it; never a downloaded
 * browser): where it is, the skip reason without it (with CI=true the tests run and fail), and one
 * headless persistent context with the flags that keep it off the network.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_SKIP: string | false =
  existsSync(CHROMIUM) || process.env.CI === 'true'
    ? false
    : `chromium not installed at ${CHROMIUM} (CI installs it via .ci/run; Debian package "chromium")`;

/** A headless context with its profile in `dir`, at the given viewport. */
export function launchChromium(dir: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport,
  });
}
