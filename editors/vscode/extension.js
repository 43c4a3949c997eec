/* global require, module, process */
// Starts `triad templates lsp --stdio` for device templates (*.ndst.json, *.ndst.yml, *.ndst.yaml).
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

/** The command that runs the server: the configured `triad`, else `npx --no-install triad`. */
function serverCommand() {
  const configured = vscode.workspace.getConfiguration('triadTemplates').get('serverPath', '');
  const args = ['templates', 'lsp', '--stdio'];
  if (configured !== '') return { command: configured, args };
  // --no-install: never download a package named "triad" from the registry; use the project's own.
  return { command: process.platform === 'win32' ? 'npx.cmd' : 'npx', args: ['--no-install', 'triad', ...args] };
}

function activate(context) {
  const { command, args } = serverCommand();
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const executable = { command, args, options: { cwd, shell: process.platform === 'win32' } };
  client = new LanguageClient(
    'triadTemplates',
    'Triad device templates',
    { run: executable, debug: executable },
    {
      documentSelector: [
        { scheme: 'file', pattern: '**/*.ndst.json' },
        { scheme: 'file', pattern: '**/*.ndst.{yml,yaml}' },
        { scheme: 'untitled', pattern: '**/*.ndst.{json,yml,yaml}' },
      ],
    },
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client?.stop();
}

module.exports = { activate, deactivate };
