import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeWithPrograms } from '@triad/device-drivers/testing';
import { expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
// The server from the sources, as `triad templates lsp --stdio` would run it once built.
const SERVER = [
  process.execPath,
  '--conditions=source',
  '--import',
  'tsx',
  path.join(ROOT, 'apps/cli/src/bin.ts'),
  'templates',
  'lsp',
  '--stdio',
];

// A valid example template, given one error: an access type misspelt.
const EXAMPLE = path.join(ROOT, 'packages/device-templates/examples/icmp-host.ndst.yaml');
const MISSPELT = 'read-olny';

interface Written {
  readonly error?: string;
  readonly arrived?: boolean;
  readonly clients?: string[];
  readonly diagnostics?: {
    lnum: number;
    col: number;
    end_lnum: number;
    end_col: number;
    severity: number;
    code: string;
    source: string;
    message: string;
  }[];
}

/** Runs headless Neovim on `file` with editors/neovim's setup and returns what it wrote. */
async function diagnosticsInNeovim(dir: string, file: string): Promise<Written> {
  const out = path.join(dir, 'diagnostics.json');
  const child = spawn('nvim', ['--headless', '-n', '-i', 'NONE', '-u', path.join(HERE, 'test/write-diagnostics.lua')], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: dir,
      XDG_DATA_HOME: dir,
      XDG_STATE_HOME: dir,
      XDG_CACHE_HOME: dir,
      TRIAD_PLUGIN_DIR: HERE,
      TRIAD_CMD: JSON.stringify(SERVER),
      TRIAD_CWD: ROOT,
      TRIAD_FILE: file,
      TRIAD_OUT: out,
    },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  const written = await readFile(out, 'utf8').catch(() => undefined);
  if (written === undefined) throw new Error(`nvim exited with ${code} and wrote nothing; stderr: ${stderr}`);
  return JSON.parse(written) as Written;
}

describeWithPrograms('Neovim with editors/neovim', ['nvim'], 'install neovim (apt-get install neovim)', () => {
  it('shows the language server’s diagnostic at its line and column, with its code', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'triad-nvim-'));
    try {
      const file = path.join(dir, 'meter.ndst.yaml');
      const text = (await readFile(EXAMPLE, 'utf8')).replace(
        'originAccessType: read-only',
        `originAccessType: ${MISSPELT}`,
      );
      await writeFile(file, text);
      // Neovim counts lines and columns from 0.
      const at = text.indexOf(MISSPELT);
      const line = text.slice(0, at).split('\n').length - 1;
      const column = at - text.lastIndexOf('\n', at) - 1;
      const written = await diagnosticsInNeovim(dir, file);
      expect(written.error).toBeUndefined();
      expect(written.clients).toEqual(['triad_templates']);
      expect(written.arrived).toBe(true);
      expect(written.diagnostics).toEqual([
        expect.objectContaining({
          lnum: line,
          col: column,
          end_lnum: line,
          end_col: column + MISSPELT.length,
          code: 'DT_ERR_SCHEMA_ENUM',
          severity: 1,
          source: 'triad',
        }),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
