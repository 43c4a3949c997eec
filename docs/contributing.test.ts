import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * CONTRIBUTING.md is the newcomer's map: its code map names every workspace and every top-level
 * folder, its decision index lists every record in docs/decisions/, and every workspace places
 * its `src/` in a `layers.json` that the dependency rules read. A new workspace, folder or record
 * that is not on the map fails here.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const contributing = readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8');
const workspaces = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;

/** The code map: the first fenced block under "## Where code lives", as folder paths it names. */
function mappedFolders(): Set<string> {
  const section = contributing.slice(contributing.indexOf('## Where code lives'));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const folders = new Set<string>();
  let parent = '';
  for (const line of block.split('\n')) {
    const match = /^( *)([\w.-]+\/)/.exec(line);
    if (!match?.[2]) continue;
    const name = match[2].slice(0, -1);
    if ((match[1] ?? '').length === 0) {
      parent = name;
      folders.add(name);
    } else if ((match[1] ?? '').length === 2) folders.add(`${parent}/${name}`);
  }
  return folders;
}

/** Top-level folders git tracks, apart from hidden ones. */
function trackedTopFolders(): string[] {
  const files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
  const folders = new Set(files.filter((file) => file.includes('/')).map((file) => file.split('/')[0] ?? ''));
  return [...folders].filter((folder) => folder !== '' && !folder.startsWith('.')).sort();
}

describe('CONTRIBUTING.md', () => {
  it('maps every workspace and every top-level folder', () => {
    const mapped = mappedFolders();
    expect(workspaces.filter((workspace) => !mapped.has(workspace))).toEqual([]);
    expect(trackedTopFolders().filter((folder) => !mapped.has(folder))).toEqual([]);
  });

  it('indexes every decision record', () => {
    const records = readdirSync(path.join(ROOT, 'docs/decisions')).filter((file) => /^\d{4}-.*\.md$/.test(file));
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((record) => !contributing.includes(`](docs/decisions/${record})`))).toEqual([]);
  });

  it('gives every workspace a layers.json for the dependency rules', () => {
    expect(workspaces.filter((workspace) => !existsSync(path.join(ROOT, workspace, 'layers.json')))).toEqual([]);
  });
});
