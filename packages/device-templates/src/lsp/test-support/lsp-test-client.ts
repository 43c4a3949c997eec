import { PassThrough } from 'node:stream';
import {
  createConnection,
  createProtocolConnection,
  ProposedFeatures,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { serveTemplates, type TemplateLanguageServerOptions } from '../template-language-server.js';

/** A client connected to an in-process server through a pair of pipes, as an editor would be. */
export interface TestClient {
  readonly connection: ProtocolConnection;
  /** The next `publishDiagnostics` for `uri` (waits for it). */
  nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams>;
  /** Shuts the server down (`shutdown`) and drops both ends; the pipes stay open (ending them exits the process). */
  close(): Promise<void>;
}

/** Starts a server on in-memory streams and an initialized client talking to it. For tests and benches. */
export async function startTestClient(options: TemplateLanguageServerOptions = {}): Promise<TestClient> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(ProposedFeatures.all, toServer, toClient);
  serveTemplates(server, options);
  server.listen();
  const connection = createProtocolConnection(toClient, toServer);
  const waiting = new Map<string, ((params: PublishDiagnosticsParams) => void)[]>();
  const queued = new Map<string, PublishDiagnosticsParams[]>();
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    const next = waiting.get(params.uri)?.shift();
    if (next !== undefined) next(params);
    else queued.set(params.uri, [...(queued.get(params.uri) ?? []), params]);
  });
  connection.listen();
  await connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
  await connection.sendNotification('initialized', {});
  return {
    connection,
    nextDiagnostics(uri) {
      const ready = queued.get(uri)?.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      return new Promise((resolve) => waiting.set(uri, [...(waiting.get(uri) ?? []), resolve]));
    },
    async close() {
      await connection.sendRequest('shutdown');
      connection.dispose();
      server.dispose();
    },
  };
}
