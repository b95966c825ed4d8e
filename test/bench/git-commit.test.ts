/**
 * The report's meta.git_commit: the commit of the mcpgauge checkout that ran, read from its own
 * .git, checked against `git rev-parse HEAD` on real repositories (loose ref, packed refs, a
 * detached HEAD, a linked worktree), and null for a folder inside someone else's repository (an
 * installed package is not a checkout; git itself would name the enclosing repository's commit).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitCommit } from '../../pipeline/bench/report.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
    .toString()
    .trim();

test('git_commit: what git says for a loose ref, packed refs, a detached HEAD and a worktree; null inside another repository', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-gitcommit-'));
  try {
    const repo = join(tmp, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    assert.equal(gitCommit(repo), null, 'an unborn branch has no commit');
    writeFileSync(join(repo, 'a.txt'), 'a');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-q', '-m', 'one');
    const first = git(repo, 'rev-parse', 'HEAD');
    assert.equal(gitCommit(repo), first, 'loose ref');
    writeFileSync(join(repo, 'a.txt'), 'b');
    git(repo, 'commit', '-q', '-am', 'two');
    git(repo, 'pack-refs', '--all');
    const second = git(repo, 'rev-parse', 'HEAD');
    assert.notEqual(second, first);
    assert.equal(gitCommit(repo), second, 'packed refs');
    // a folder inside the repository, with no .git of its own (an installed package): not ours to name
    const installed = join(repo, 'node_modules', 'mcpgauge');
    mkdirSync(installed, { recursive: true });
    assert.equal(git(installed, 'rev-parse', 'HEAD'), second, 'git itself answers with the enclosing repository');
    assert.equal(gitCommit(installed), null);
    const wt = join(tmp, 'wt');
    git(repo, 'worktree', 'add', '-q', '--detach', wt, first);
    assert.equal(gitCommit(wt), first, 'a linked worktree, detached');
    git(wt, 'checkout', '-q', '-b', 'side');
    writeFileSync(join(wt, 'a.txt'), 'c');
    git(wt, 'commit', '-q', '-am', 'three');
    assert.equal(gitCommit(wt), git(wt, 'rev-parse', 'HEAD'), "a worktree's branch (loose ref in the common folder)");
    git(repo, 'checkout', '-q', '--detach', first);
    assert.equal(gitCommit(repo), first, 'detached HEAD');
    assert.equal(gitCommit(join(tmp, 'nothing')), null, 'no folder');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
