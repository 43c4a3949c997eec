import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSourceProcess } from '@triad/service-kit/testing';
import type { TriadProcess } from '../apps/cli/src/test-support/serve-process.js';

const run = promisify(execFile);

/** The commit `deploy/previous-release` records (a full hash), read from `root`. */
export async function previousReleaseCommit(root: string): Promise<string> {
  const commit = (await readFile(path.join(root, 'deploy', 'previous-release'), 'utf8')).trim();
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new Error(`deploy/previous-release must hold a full commit hash`);
  return commit;
}

/** True when the clone at `root` holds `commit` (a shallow clone may not). */
export async function hasCommit(root: string, commit: string): Promise<boolean> {
  return run('git', ['-C', root, 'cat-file', '-e', `${commit}^{commit}`]).then(
    () => true,
    () => false,
  );
}

/**
 * Writes the files of `commit` into `into` (`git archive | tar -x`), then gives that tree the
 * dependencies installed at `root`: every package of `root/node_modules` linked, except the
 * workspaces (`@triad/*`), which point at the tree's own folders, so its code runs, not the
 * current one. Workspaces' own `node_modules` folders are linked too.
 */
export async function extractRelease(root: string, commit: string, into: string): Promise<void> {
  await mkdir(into, { recursive: true });
  await run('sh', ['-c', `git -C "$0" archive --format=tar "$1" | tar -x -C "$2"`, root, commit, into]);
  const modules = path.join(into, 'node_modules');
  await mkdir(path.join(modules, '@triad'), { recursive: true });
  for (const entry of await readdir(path.join(root, 'node_modules'))) {
    if (entry === '@triad') continue;
    await symlink(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  const manifest = JSON.parse(await readFile(path.join(into, 'package.json'), 'utf8')) as { workspaces?: string[] };
  for (const workspace of manifest.workspaces ?? []) {
    const folder = path.join(into, workspace);
    if (!existsSync(path.join(folder, 'package.json'))) continue;
    const { name } = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')) as { name: string };
    await symlink(folder, path.join(modules, name));
    const own = path.join(root, workspace, 'node_modules');
    if (existsSync(own)) await symlink(own, path.join(folder, 'node_modules'));
  }
}

/**
 * Runs `triad ...args` from the sources of the tree at `root` (as `npm run dev` does), `env` over
 * this process's environment; `waitFor` and `stopTriad` of the CLI's test support drive it.
 */
export function startTriadIn(
  root: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): TriadProcess {
  return startSourceProcess({ cwd: root, args: ['apps/cli/src/bin.ts', ...args], env });
}
