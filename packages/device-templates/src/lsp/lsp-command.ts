import type { Command } from 'commander';
import type { OidNameResolver } from '../semantics/check-snmp-addresses.js';

/**
 * Adds `triad templates lsp --stdio`: the device-template language server on standard input and
 * output. The server module (and vscode-languageserver) is loaded only when the command runs.
 * The action resolves when the client ends the session (`exit`) or closes the pipe.
 */
export function addLspCommand(templates: Command, oidNames?: () => OidNameResolver | undefined): void {
  templates
    .command('lsp')
    .description('Run the device-template language server (LSP) for editors, over standard input and output')
    .option('--stdio', 'talk LSP over standard input and output (the only transport, and the default)', true)
    .action(async () => {
      const { createConnection, ProposedFeatures } = await import('vscode-languageserver/node');
      const { serveTemplates } = await import('./template-language-server.js');
      const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
      const resolver = oidNames?.();
      serveTemplates(connection, resolver ? { oidNames: resolver } : {});
      const closed = new Promise<void>((resolve) => {
        connection.onExit(() => resolve());
        process.stdin.on('close', () => resolve());
      });
      connection.listen();
      await closed;
    });
}
