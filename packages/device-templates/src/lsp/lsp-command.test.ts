import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createProtocolConnection, type PublishDiagnosticsParams } from 'vscode-languageserver/node';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

// `triad templates lsp --stdio` as the templates command runs it, in a process of its own.
const SCRIPT =
  "import { createTemplatesCommand, processIo } from './src/index.ts';" +
  "await createTemplatesCommand(processIo(), '0').parseAsync(['lsp', '--stdio'], { from: 'user' });";

describe('triad templates lsp --stdio', () => {
  it('answers over standard input and output and exits 0 on shutdown and exit', async () => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', '--input-type=module', '--eval', SCRIPT],
      { cwd: PACKAGE_ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const connection = createProtocolConnection(child.stdout, child.stdin);
    const published = new Promise<PublishDiagnosticsParams>((resolve) =>
      connection.onNotification('textDocument/publishDiagnostics', resolve),
    );
    connection.listen();
    const init: { capabilities: { hoverProvider?: boolean } } = await connection.sendRequest('initialize', {
      processId: null,
      rootUri: null,
      capabilities: {},
    });
    expect(init.capabilities.hoverProvider).toBe(true);
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: 'file:///t.ndst.json', languageId: 'json', version: 1, text: '{"templateId": 1}' },
    });
    const { diagnostics } = await published;
    expect(diagnostics.map((d) => d.code)).toContain('DT_ERR_SCHEMA_TYPE');
    await connection.sendRequest('shutdown');
    await connection.sendNotification('exit');
    expect(await exited).toBe(0);
    connection.dispose();
  }, 30_000);
});
