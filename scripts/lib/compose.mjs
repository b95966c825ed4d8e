// The compose substrate of `make bench-discovery ARGS="--substrate compose"`: build the fixture
// image when stale, `docker compose up` (or docker-compose v1) of fixture + reference proxy
// (plus docker-compose.host.yml on engines without bridge networking), wait until both health
// checks pass, run the given mcpgauge argv against the proxy in the container, tear down always
// (also on failure and on SIGINT/SIGTERM). Returns the exit code.
import { spawnSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';

const say = (m) => process.stderr.write(`[compose] ${m}\n`);

/** `docker compose` when the plugin answers, else `docker-compose` (v1); null when neither does */
export function composeClient() {
  for (const cmd of [['docker', 'compose'], ['docker-compose']]) {
    const r = spawnSync(cmd[0], [...cmd.slice(1), 'version'], { encoding: 'utf8', timeout: 15_000 });
    if (r.status === 0) return cmd;
  }
  return null;
}

function portFree(port) {
  return new Promise((resolve) => {
    const s = createServer().once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

export async function runOnCompose(root, mcpgaugeArgv, { healthTimeoutMs = 180_000 } = {}) {
  const img = spawnSync(process.execPath, [path.join(root, 'scripts', 'fixture-image.mjs'), '--no-smoke'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (img.status !== 0) return img.status === 1 ? 1 : 2;
  const client = composeClient();
  if (!client) {
    say('neither `docker compose` nor `docker-compose` answers');
    return 2;
  }
  // no bridge network on this engine (dockerd --bridge=none): the host-network override
  const hostNet = spawnSync('docker', ['network', 'inspect', 'bridge'], { stdio: 'ignore' }).status !== 0;
  const files = ['-f', path.join(root, hostNet ? 'docker-compose.host.yml' : 'docker-compose.yml')];
  const ports = hostNet ? [18080, 18092] : [8080, 8092];
  for (const p of ports) {
    if (!(await portFree(p))) {
      say(`127.0.0.1:${p} is in use; the compose substrate needs it (${hostNet ? 'docker-compose.host.yml' : 'docker-compose.yml'})`);
      return 2;
    }
  }
  const project = `mcpgauge-${randomBytes(3).toString('hex')}`;
  const key = randomBytes(18).toString('base64url');
  const env = { ...process.env, MCPGAUGE_PROXY_API_KEY: key, COMPOSE_PROJECT_NAME: project, MCPGAUGE_PROXY_PORT: String(ports[1]) };
  const compose = (args, opts = {}) =>
    spawnSync(client[0], [...client.slice(1), ...files, ...args], { cwd: root, env, encoding: 'utf8', ...opts });
  let downDone = false;
  const down = () => {
    if (downDone) return;
    downDone = true;
    const r = compose(['down', '-v', '--remove-orphans', '-t', '5'], { stdio: ['ignore', 'ignore', 'pipe'] });
    const left = spawnSync('docker', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`], {
      encoding: 'utf8',
    }).stdout.trim();
    say(
      `torn down (${client.join(' ')} down: exit ${r.status}; containers of project ${project} left: ${left ? left.split('\n').length : 0})`,
    );
  };
  const onSignal = (_sig, code) => () => {
    down();
    process.exit(code);
  };
  const handlers = [
    ['SIGINT', onSignal('SIGINT', 130)],
    ['SIGTERM', onSignal('SIGTERM', 143)],
  ];
  for (const [s, h] of handlers) process.once(s, h);
  try {
    say(`${client.join(' ')} up (project ${project}${hostNet ? ', host network: no bridge on this engine' : ''})`);
    const up = compose(['up', '-d', '--no-build'], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (up.status !== 0) {
      say(`up exited with ${up.status}`);
      return 2;
    }
    const t0 = Date.now();
    let last = '';
    for (;;) {
      const ids = compose(['ps', '-q']).stdout.trim().split('\n').filter(Boolean);
      const states = ids.map((id) =>
        spawnSync(
          'docker',
          ['inspect', '--format', '{{.Name}}={{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}', id],
          { encoding: 'utf8' },
        ).stdout.trim(),
      );
      last = states.join(' ');
      if (states.length === 2 && states.every((s) => s.endsWith('=healthy'))) break;
      if (Date.now() - t0 > healthTimeoutMs) {
        say(`not healthy within ${healthTimeoutMs} ms: ${last || 'no containers'}`);
        process.stderr.write(compose(['logs', '--no-color', '--tail', '20']).stdout);
        return 2;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    say(`both healthy after ${Date.now() - t0} ms: ${last}`);
    const url = `http://127.0.0.1:${ports[1]}/mcp`;
    const argv = [path.join(root, 'bin', 'mcpgauge.mjs'), ...mcpgaugeArgv, '--proxy-url', url, '--api-key-env', 'MCPGAUGE_PROXY_API_KEY'];
    say(`measuring the proxy in the container: mcpgauge ${mcpgaugeArgv.join(' ')} --proxy-url ${url} --api-key-env MCPGAUGE_PROXY_API_KEY`);
    const code = await new Promise((resolve) => {
      const child = spawn(process.execPath, argv, { cwd: root, env, stdio: 'inherit' });
      child.once('exit', (c, s) => resolve(c ?? (s ? 1 : 2)));
    });
    return code;
  } finally {
    down();
    for (const [s, h] of handlers) process.off(s, h);
  }
}
