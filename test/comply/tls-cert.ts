/**
 * A throw-away self-signed certificate for 127.0.0.1, made with openssl at test time in a temp
 * folder (removed by cleanup). Without openssl the TLS tests skip, except under CI=true, where a
 * missing openssl fails them (.ci/run installs the Debian package).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCert {
  dir: string;
  cert: string;
  key: string;
  cleanup(): void;
}

const HAVE_OPENSSL = spawnSync('openssl', ['version']).status === 0;

/** the node:test `skip` value: false, or why the TLS tests cannot run here */
export const TLS_SKIP: false | string =
  HAVE_OPENSSL || process.env.CI === 'true' ? false : 'openssl is not installed (CI installs it via .ci/run; Debian package "openssl")';

export function makeCert(): TestCert {
  if (!HAVE_OPENSSL)
    throw new Error(
      'openssl is not installed: the TLS tests need it to make a test certificate (CI=true makes this a failure, not a skip)',
    );
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-tls-'));
  const cert = join(dir, 'c.pem');
  const key = join(dir, 'k.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { dir, cert, key, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** the fixture env of the TLS mode */
export const tlsEnv = (c: TestCert) => ({ FIXTURE_TLS_CERT: c.cert, FIXTURE_TLS_KEY: c.key });
