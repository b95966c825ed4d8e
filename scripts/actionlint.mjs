#!/usr/bin/env node
// actionlint (pinned) for the workflow lint test: installed once with `go install` from the Go
// module proxy into .cache/bin, then run with the given arguments. Exit code: actionlint's own
// (0 clean, 1 problems found), 2 when it cannot be installed (one line saying why).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ACTIONLINT_VERSION = 'v1.7.12';
const root = resolve(import.meta.dirname, '..');
const bin = join(root, '.cache', 'bin', 'actionlint');

function installed() {
  if (!existsSync(bin)) return false;
  const r = spawnSync(bin, ['-version'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.split('\n')[0].trim() === ACTIONLINT_VERSION;
}

if (!installed()) {
  try {
    execFileSync('go', ['install', `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`], {
      // no HOME (some CI shells): Go's module and build caches under .cache too
      env: {
        ...(process.env.HOME ? {} : { GOPATH: join(root, '.cache', 'go'), GOCACHE: join(root, '.cache', 'go-build') }),
        ...process.env,
        GOBIN: join(root, '.cache', 'bin'),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (e) {
    const why =
      e.code === 'ENOENT'
        ? 'go is not on PATH'
        : String(e.stderr ?? e.message)
            .trim()
            .split('\n')
            .pop();
    process.stderr.write(`actionlint: cannot install ${ACTIONLINT_VERSION} with go install (${why})\n`);
    process.exit(2);
  }
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit' });
process.exit(r.status ?? 2);
