/** Assembles the report document from the stage outputs (offline and live) plus run metadata. */
import { REPO_ROOT as ROOT } from '../constants.ts';
import { VERSION } from '../constants.ts';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JsonValue } from '../types.ts';
import {
  REPORT_VERSION,
  LAP_PROVENANCE,
  LIVE_PROVENANCE,
  LIVE_RESULT_PROVENANCE,
  OFFLINE_PROVENANCE,
  RESULTS_PROVENANCE,
  SCALE_PROVENANCE,
  SYSTEMS_PROVENANCE,
  type LiveReport,
  type Report,
  type ScaleReport,
  type SystemBlock,
} from '../report/index.ts';
import { TOKENIZER_CAVEAT } from '../tokens/tokenizer.ts';
import type { OfflineResult } from './offline.ts';
import { redactArgv, redactDeep } from '../util/redact.ts';
import type { ResultsReport } from '../toolresults/stage.ts';

const SHA = /^[0-9a-f]{40}$/;

/**
 * The commit of the mcpgauge checkout that runs (`root`, the package root), read from its own
 * `.git` (a folder, or a worktree's `gitdir:` file): HEAD, then the ref it names, loose or in
 * packed-refs. null when `root` has no `.git` of its own: an installed package is not a checkout,
 * even inside someone's repository (asking git there would name that repository's commit). A
 * layout this does not read (reftable) asks git, in `root`'s own repository only.
 */
export function gitCommit(root: string = ROOT): string | null {
  const dotGit = join(root, '.git');
  let gitDir: string;
  try {
    if (statSync(dotGit).isFile()) {
      const to = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (!to) return null;
      gitDir = resolve(root, to);
    } else gitDir = dotGit;
  } catch {
    return null;
  }
  const read = (file: string): string | null => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  };
  const commonRel = read(join(gitDir, 'commondir'))?.trim();
  const common = commonRel ? resolve(gitDir, commonRel) : gitDir;
  const head = read(join(gitDir, 'HEAD'))?.trim() ?? '';
  if (SHA.test(head)) return head;
  const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  if (ref && !existsSync(join(common, 'reftable'))) {
    for (const dir of [gitDir, common]) {
      const loose = read(join(dir, ref))?.trim();
      if (loose && SHA.test(loose)) return loose;
    }
    for (const line of (read(join(common, 'packed-refs')) ?? '').split('\n')) {
      const [sha, name] = line.trim().split(' ');
      if (name === ref && SHA.test(sha)) return sha;
    }
    return null; // an unborn branch: no commit yet
  }
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      env: { ...process.env, GIT_DIR: gitDir },
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    return SHA.test(out) ? out : null;
  } catch {
    return null;
  }
}

export function assembleReport(args: {
  offline?: OfflineResult;
  live?: LiveReport;
  /** side-by-side systems (`--system`) */
  systems?: SystemBlock[];
  /** cost growth vs catalog size (`--scale`) */
  scale?: ScaleReport;
  /** the offline result arms over the result fixtures */
  results?: ResultsReport;
  tokenizers: string[];
  options: { [k: string]: JsonValue };
  argv: string[];
  generatedAt?: Date;
  /** secret values used by the run (API keys): never written, wherever they would appear */
  secrets?: readonly string[];
}): Report {
  const secrets = args.secrets ?? [];
  const { offline, live } = args;
  const provenance: Report['provenance'] = {};
  if (offline) Object.assign(provenance, OFFLINE_PROVENANCE);
  if (live) {
    Object.assign(provenance, LIVE_PROVENANCE);
    if (live.lap.executed) Object.assign(provenance, LAP_PROVENANCE);
    if (live.result_cost) Object.assign(provenance, LIVE_RESULT_PROVENANCE);
  }
  if (args.systems) Object.assign(provenance, SYSTEMS_PROVENANCE);
  if (args.scale) Object.assign(provenance, SCALE_PROVENANCE);
  if (args.results) Object.assign(provenance, RESULTS_PROVENANCE);
  const notes = [...(offline?.notes ?? [])];
  notes.push(
    'Retrieval: recall/MRR/MAP/comprehensiveness use binary relevance (label >= 1); nDCG@10 uses linear graded gain relevance/log2(rank+1); 95% intervals are percentile bootstraps over queries with a fixed seed.',
  );
  const report: Report = {
    report_version: REPORT_VERSION,
    meta: {
      tool: { name: 'mcpgauge', version: VERSION },
      generated_at: (args.generatedAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      command_line: ['mcpgauge', ...redactArgv(args.argv, secrets)],
      node_version: process.version,
      git_commit: gitCommit(),
      options: redactDeep(args.options, secrets),
      tokenizers: args.tokenizers.map((name) => ({ name, caveat: TOKENIZER_CAVEAT })),
      caveat: TOKENIZER_CAVEAT,
      notes,
    },
    provenance,
    corpora: offline?.corpora ?? [],
    arms: offline?.arms ?? [],
    ranking_agreement: offline?.ranking_agreement ?? [],
    retrieval: offline?.retrieval ?? [],
    economics: offline?.economics ?? { break_even: [], session_estimates: [], curves: [] },
  };
  if (args.results) report.results = args.results;
  if (live) {
    // what the live stage recorded about its target and failures may quote a command line or a header
    report.live = {
      ...live,
      target: redactDeep(live.target, secrets),
      proxy: redactDeep(live.proxy, secrets),
      errors: redactDeep(live.errors, secrets),
    };
  }
  if (args.systems) report.systems = redactDeep(args.systems, secrets);
  if (args.scale) report.scale = redactDeep(args.scale, secrets);
  // a known secret value goes wherever it stands (e.g. echoed by a proxy inside a response)
  return secrets.length ? redactDeep(report, secrets, true) : report;
}
