// Argument composition of the make targets (pure, unit-tested in test/cli/make-args.test.ts).
// Each takes the ARGS words as given and returns the `mcpgauge` argv the target runs.
import path from 'node:path';

/** value of `--name V` or `--name=V` (last wins), and the words without it */
export function takeOption(words, name) {
  let value;
  const rest = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w === name) {
      if (i + 1 >= words.length) throw new Error(`${name} needs a value`);
      value = words[++i];
    } else if (w.startsWith(`${name}=`)) value = w.slice(name.length + 1);
    else rest.push(w);
  }
  return { value, rest };
}

/**
 * `make bench-discovery`: offline + live (embedded proxy) into results/discovery, plus a fetched
 * LiveMCPTool corpus when present. ARGS: --no-live, --out DIR, any `bench` flag.
 */
export function benchDiscoveryArgs(words, { root, cachedCorpus }) {
  const { value: out, rest } = takeOption(words, '--out');
  const noLive = rest.includes('--no-live');
  const pass = rest.filter((w) => w !== '--no-live');
  const args = ['bench', '--out', path.resolve(out ?? path.join(root, 'results', 'discovery')), ...(noLive ? [] : ['--live'])];
  if (cachedCorpus) args.push('--extra-corpus', cachedCorpus);
  return [...args, ...pass];
}

/** `make fetch`: FROM=DIR (or ARGS="--from DIR") copies from an offline mirror. */
export function fetchArgs(words, env) {
  const args = ['corpus', 'fetch', ...words];
  if (env.FROM && !words.some((a) => a === '--from' || a.startsWith('--from='))) args.push('--from', path.resolve(env.FROM));
  return args;
}

/** `make freeze`: without --version the next unused corpus-npm4-vN is chosen. */
export function freezeArgs(words) {
  const args = ['corpus', 'freeze', ...words];
  if (!words.some((a) => a === '--version' || a.startsWith('--version=') || a === '--next-version')) args.push('--next-version');
  return args;
}
