/** Docker probe for the docker cell: `docker info` must answer; otherwise the cell is skipped with the probe's error. */
import { spawn } from 'node:child_process';

export async function probeDocker(timeoutMs = 10_000): Promise<{ ok: true; version: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    let out = '';
    let done = false;
    const finish = (r: { ok: true; version: string } | { ok: false; error: string }) => {
      if (!done) {
        done = true;
        clearTimeout(t);
        resolve(r);
      }
    };
    const child = spawn('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ ok: false, error: `docker info did not answer within ${timeoutMs} ms` });
    }, timeoutMs);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', (e: NodeJS.ErrnoException) => finish({ ok: false, error: e.code === 'ENOENT' ? 'docker: command not found' : `docker: ${e.message}` }));
    child.once('exit', (code) => {
      const text = out.trim().split('\n').slice(-2).join(' | ');
      finish(code === 0 && text ? { ok: true, version: text } : { ok: false, error: `docker info exited with code ${code}: ${text || 'no output'}` });
    });
  });
}
