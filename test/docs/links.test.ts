/**
 * The user documentation names only things that exist (issue 30): in README.md and docs/*.md,
 * every relative markdown link (and its #anchor, by GitHub's heading slugs) and every backticked
 * repository path must exist; every `mcpgauge <command> [<subcommand>]` in code (inline or a
 * fenced block, also as `node bin/mcpgauge.mjs …` / `npx mcpgauge …`) must be a command of the
 * real CLI program, every `--flag` on such a fenced command line one of that command's options,
 * and every `make <target>` a target of the Makefile. The README stays short (<= 200 lines) and
 * shows the two set-up commands. A planted bad link, anchor, path, command, flag and target must
 * each be reported (the checker's own test). Reads files only: no process, well under a second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../pipeline/cli.ts';
import { REPO_ROOT } from '../../pipeline/constants.ts';

/** The pages checked: the README and every page directly in docs/. */
const PAGES = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** A backticked span is taken for a repository path when it starts with one of these (generated folders such as results/, dist/, .cache/ are not). */
const PATH_ROOTS = /^(pipeline|arms|datasets|scripts|test|docs|bin|reports-template|docker|\.ci)\/[\w./-]*$/;
const TOP_FILES = new Set([
  'Makefile',
  'Dockerfile',
  'README.md',
  'package.json',
  'package-lock.json',
  'gate.config.json',
  'docker-compose.yml',
  'docker-compose.host.yml',
  'tsconfig.json',
  'tsconfig.build.json',
]);
/** Not a file: a placeholder inside a path (`corpus-npm4-vN.tools.json`), a gate cell id (`docker/2025-11-25`). */
const PLACEHOLDER = /-vN\b|^[\w-]+\/\d{4}-\d{2}-\d{2}$/;

interface Problem {
  page: string;
  line: number;
  what: string;
}

/** GitHub's anchor of a heading: inline markup dropped, lower case, punctuation removed, spaces to '-'. */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors a markdown text offers (duplicates numbered as GitHub does). */
export function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text, fenced } of linesOf(md)) {
    const h = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!h) continue;
    const base = slugOf(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Lines with their number and whether they sit inside a fenced code block (the fence lines themselves count as fenced). */
function linesOf(md: string): Array<{ no: number; text: string; fenced: boolean }> {
  let inFence = false;
  return md.split('\n').map((text, i) => {
    const fence = /^\s*(```|~~~)/.test(text);
    const fenced = inFence || fence;
    if (fence) inFence = !inFence;
    return { no: i + 1, text, fenced };
  });
}

/** Makefile targets (rule lines `name: …`). */
function makeTargets(root: string): Set<string> {
  const mk = readFileSync(join(root, 'Makefile'), 'utf8');
  return new Set([...mk.matchAll(/^([A-Za-z][\w-]*)\s*:(?!=)/gm)].map((m) => m[1]));
}

/** The long options a command accepts (commander's own --help included). */
function longOptions(cmd: Command): Set<string> {
  return new Set(['--help', ...cmd.options.map((o) => o.long).filter((l): l is string => !!l)]);
}

/** `mcpgauge <command> [<sub>]` occurrences in a piece of code: [command, sub?, the rest of the line]. */
function mcpgaugeCalls(code: string): Array<{ cmd: string; sub?: string; rest: string }> {
  const out: Array<{ cmd: string; sub?: string; rest: string }> = [];
  const re = /(?:^|[\s;&|(`])(?:npx\s+)?(?:node\s+bin\/)?mcpgauge(?:\.mjs)?[ \t]+([a-z][\w-]*)(?:[ \t]+([a-z][\w-]*))?([^;&|]*)/g;
  for (const m of code.matchAll(re)) out.push({ cmd: m[1], sub: m[2], rest: `${m[2] ?? ''} ${m[3]}` });
  return out;
}

/** Every problem of one page; `root` is the repository the page belongs to. */
export function checkPage(page: string, md: string, root: string, program: Command, targets: Set<string>): Problem[] {
  const problems: Problem[] = [];
  const dir = dirname(join(root, page));
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string, text?: string) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(text ?? readFileSync(file, 'utf8')));
    return anchorCache.get(file)!;
  };
  anchors(join(root, page), md);
  const lines = linesOf(md);
  // fenced command lines: join `\` continuations so a command's flags stay on one logical line
  const logical: Array<{ no: number; text: string; fenced: boolean }> = [];
  for (const l of lines) {
    const prev = logical[logical.length - 1];
    if (prev?.fenced && l.fenced && /\\\s*$/.test(prev.text)) prev.text = `${prev.text.replace(/\\\s*$/, ' ')}${l.text}`;
    else logical.push({ ...l });
  }
  const checkCalls = (no: number, code: string, flags: boolean) => {
    for (const c of mcpgaugeCalls(code)) {
      const cmd = program.commands.find((k) => k.name() === c.cmd);
      if (!cmd) {
        problems.push({
          page,
          line: no,
          what: `\`mcpgauge ${c.cmd}\`: no such command (commands: ${program.commands.map((k) => k.name()).join(', ')})`,
        });
        continue;
      }
      let leaf = cmd;
      if (cmd.commands.length && c.sub) {
        const sub = cmd.commands.find((k) => k.name() === c.sub);
        if (sub) leaf = sub;
        else if (!cmd.options.some((o) => o.long !== '--version' && o.long !== '--help'))
          problems.push({
            page,
            line: no,
            what: `\`mcpgauge ${c.cmd} ${c.sub}\`: no such subcommand (${cmd.commands.map((k) => k.name()).join(', ')})`,
          });
      }
      if (!flags) continue;
      // the command's own words: before a `--` (a stdio server's command line) and a `#` comment, quoted parts (another program's flags) dropped
      const own = c.rest
        .split(/\s--(?:\s|$)/)[0]
        .split(/\s#/)[0]
        .replace(/"[^"]*"|'[^']*'/g, ' ');
      const known = longOptions(leaf);
      for (const f of own.match(/(?<![\w-])--[a-z][\w-]*/g) ?? []) {
        if (!known.has(f))
          problems.push({
            page,
            line: no,
            what: `\`mcpgauge ${leaf === cmd ? cmd.name() : `${cmd.name()} ${leaf.name()}`}\` has no option ${f}`,
          });
      }
    }
  };
  const checkMake = (no: number, code: string) => {
    for (const m of code.matchAll(/(?:^|[\s;&|(`])make[ \t]+([a-z][\w-]*)/g)) {
      if (!targets.has(m[1])) problems.push({ page, line: no, what: `\`make ${m[1]}\`: no such Makefile target` });
    }
  };
  for (const { no, text, fenced } of logical) {
    if (fenced) {
      if (/^\s*(```|~~~)/.test(text)) continue;
      checkCalls(no, text, true);
      checkMake(no, text);
      continue;
    }
    for (const m of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z][\w+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path, anchor] = target.split('#', 2);
      const file = path === '' ? join(root, page) : resolve(dir, decodeURIComponent(path));
      if (path !== '' && (!file.startsWith(root) || !existsSync(file))) {
        problems.push({ page, line: no, what: `link ${target}: ${relative(root, file)} does not exist` });
        continue;
      }
      if (anchor && file.endsWith('.md') && !anchors(file).has(anchor))
        problems.push({ page, line: no, what: `link ${target}: ${relative(root, file)} has no heading #${anchor}` });
    }
    for (const m of text.matchAll(/`([^`]+)`/g)) {
      const span = m[1].trim();
      checkCalls(no, span, false);
      checkMake(no, span);
      if ((PATH_ROOTS.test(span) || TOP_FILES.has(span)) && !PLACEHOLDER.test(span) && !existsSync(join(root, span))) {
        problems.push({ page, line: no, what: `path \`${span}\` does not exist` });
      }
    }
  }
  return problems;
}

const program = buildProgram();
const targets = makeTargets(REPO_ROOT);
const show = (ps: Problem[]) => ps.map((p) => `${p.page}:${p.line}: ${p.what}`).join('\n');

test('README.md and docs/*.md: every relative link, anchor and backticked path exists; every mcpgauge command, flag and make target is real', () => {
  assert.ok(PAGES.length >= 10, PAGES.join(' '));
  const problems = PAGES.flatMap((p) => checkPage(p, readFileSync(join(REPO_ROOT, p), 'utf8'), REPO_ROOT, program, targets));
  assert.equal(problems.length, 0, `\n${show(problems)}`);
});

test('README.md: at most 200 lines, the two set-up commands, a committed screenshot under 300 KiB, every docs page linked', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 200, `README.md has ${lines} lines (at most 200: detail goes to docs/)`);
  for (const c of ['make bench-discovery', 'make test'])
    assert.ok(readme.includes(`\n${c} `), `README.md shows \`${c}\` in its set-up block`);
  const img = /!\[[^\]]*\]\((docs\/img\/[^)]+\.png)\)/.exec(readme);
  assert.ok(img, 'README.md shows the dashboard screenshot (docs/img/*.png)');
  const size = statSync(join(REPO_ROOT, img![1])).size;
  assert.ok(size < 300 * 1024, `${img![1]} is ${Math.round(size / 1024)} KiB (keep it under 300)`);
  // a PNG of the first screen scripts/screenshot.mjs takes (IHDR width and height)
  const png = readFileSync(join(REPO_ROOT, img![1]));
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', `${img![1]} is a PNG`);
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1280, 800], `${img![1]}: the 1280x800 first screen of make screenshot`);
  const unlinked = PAGES.filter((p) => p.startsWith('docs/') && !readme.includes(`](${p})`));
  assert.deepEqual(unlinked, [], 'every docs page is linked from the README');
});

test('the checker reports a planted bad link, anchor, path, command, subcommand, flag and make target', () => {
  const planted = [
    '# Page',
    '## A heading, with `code`',
    'See [gate](gate.md), [here](#a-heading-with-code) and [README](../README.md#exit-codes).',
    'Broken: [nope](no-such-page.md) and [gate](gate.md#no-such-heading) and [self](#missing).',
    'Paths: `pipeline/cli.ts` exists, `pipeline/no-such-file.ts` does not, `datasets/corpus-npm4-vN.tools.json` is a pattern.',
    'Commands: `mcpgauge bench`, `mcpgauge frobnicate`, `mcpgauge corpus freeze`, `mcpgauge corpus melt`, `make gate`, `make no-such-target`.',
    '```sh',
    'node bin/mcpgauge.mjs bench --live --no-such-flag \\',
    '     --proxy-url http://x/mcp   # --not-checked-in-a-comment',
    'node bin/mcpgauge.mjs comply --strict -- node server.js --server-flag',
    '```',
  ].join('\n');
  const found = checkPage('docs/planted.md', planted, REPO_ROOT, program, targets).map((p) => p.what);
  const expect = [
    /^link no-such-page\.md: docs\/no-such-page\.md does not exist$/,
    /^link gate\.md#no-such-heading: docs\/gate\.md has no heading #no-such-heading$/,
    /^link #missing: docs\/planted\.md has no heading #missing$/,
    /^path `pipeline\/no-such-file\.ts` does not exist$/,
    /^`mcpgauge frobnicate`: no such command/,
    /^`mcpgauge corpus melt`: no such subcommand/,
    /^`make no-such-target`: no such Makefile target$/,
    /^`mcpgauge bench` has no option --no-such-flag$/,
  ];
  assert.equal(found.length, expect.length, found.join('\n'));
  for (const re of expect)
    assert.ok(
      found.some((w) => re.test(w)),
      `not reported: ${re}\n${found.join('\n')}`,
    );
  assert.equal(slugOf('Release QA: `make gate` (`mcpgauge gate`)'), 'release-qa-make-gate-mcpgauge-gate');
});
