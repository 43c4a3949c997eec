import {
  CodeActionKind,
  DiagnosticSeverity,
  TextDocumentSyncKind,
  type CodeAction,
  type Connection,
  type Diagnostic,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { isObject } from '@triad/common';
import type { SourceFormat } from '../loading/loaded-document.js';
import type { Problem } from '../problem.js';
import { IncrementalValidator } from './incremental-validator.js';
import { problemRange } from './problem-range.js';
import { suggestionEdit } from './suggestion-edit.js';
import { definitionAt } from './datapoint-definition.js';
import type { OpenTemplate } from './open-template.js';
import { completeAt } from './template-completion.js';
import { hoverAt } from './template-hover.js';
import type { OidNameResolver } from '../semantics/check-snmp-addresses.js';

/** Settings of the language server. */
export interface TemplateLanguageServerOptions {
  /** Quiet time after the last change before a document is validated again. Default 25 ms. */
  readonly debounceMs?: number;
  /**
   * After this many validations without a full load (each adds a step to every position lookup)
   * the text is loaded in full once the editor has been quiet for `idleReloadMs`, so that typing
   * seldom waits for a full load. Defaults 50 and 1000 ms.
   */
  readonly idleReloadAfter?: number;
  readonly idleReloadMs?: number;
  /** Resolves MIB names in SNMP addresses (`triad templates lsp` passes the SNMP driver's); else form only. */
  readonly oidNames?: OidNameResolver;
}

/** The file names the server handles: `*.ndst.json`, `*.ndst.yml`, `*.ndst.yaml`. */
export const TEMPLATE_FILE = /\.ndst\.(json|ya?ml)$/i;

/**
 * Serves device templates over `connection` (Language Server Protocol): publishes the validator's
 * problems (schema, semantic and expression checks) as diagnostics on open and after each burst
 * of changes, offers a problem's `suggestion` as a quick fix, completes keys, enum values,
 * datapoint ids and discovery variables, hovers with the schema's descriptions and leads from a
 * datapoint id in an expression to its datapoint. An edit inside one array entry (a datapoint,
 * say) or one string value is validated without loading the whole text again
 * (`IncrementalValidator`). Documents whose name does not end in `.ndst.json|yml|yaml` are
 * ignored. Call `connection.listen()` afterwards.
 */
export function serveTemplates(connection: Connection, options: TemplateLanguageServerOptions = {}): void {
  const debounceMs = options.debounceMs ?? 25;
  const idleReloadAfter = options.idleReloadAfter ?? 50;
  const idleReloadMs = options.idleReloadMs ?? 1000;
  interface Template {
    text: TextDocument;
    parsed: OpenTemplate['parsed'];
    readonly validator: IncrementalValidator;
    timer?: NodeJS.Timeout;
    /** The full load planned for when the editor is quiet. */
    idle?: NodeJS.Timeout;
  }
  const templates = new Map<string, Template>();

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      completionProvider: { triggerCharacters: ['"', "'", '.', '{', '['] },
      hoverProvider: true,
      definitionProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
    },
    serverInfo: { name: 'triad-templates' },
  }));

  const validate = (uri: string) => {
    try {
      publish(uri);
    } catch (error) {
      // A bug must cost one document's diagnostics, not the editor's server (this runs from a timer).
      connection.console.error(`triad: validating ${uri} failed: ${String(error)}`);
    }
  };
  const publish = (uri: string) => {
    const template = templates.get(uri);
    if (template === undefined) return;
    const document = template.text;
    const result = template.validator.validate(document.getText());
    if (result.document !== undefined) template.parsed = result.document;
    const diagnostics = [...result.errors, ...result.warnings].map((problem) =>
      toDiagnostic(problem, document, formatOf(uri), result.document),
    );
    void connection.sendDiagnostics({ uri, version: document.version, diagnostics });
    clearTimeout(template.idle);
    if (result.document !== undefined && template.validator.steps >= idleReloadAfter) {
      template.idle = setTimeout(() => {
        template.validator.record(undefined);
        validate(uri);
      }, idleReloadMs);
    }
  };
  const stopTimers = (template: Template | undefined) => {
    clearTimeout(template?.timer);
    clearTimeout(template?.idle);
  };

  connection.onDidOpenTextDocument(({ textDocument: { uri, languageId, version, text } }) => {
    if (!TEMPLATE_FILE.test(uri)) return;
    stopTimers(templates.get(uri));
    templates.set(uri, {
      text: TextDocument.create(uri, languageId, version, text),
      parsed: undefined,
      validator: new IncrementalValidator(uri, formatOf(uri), options.oidNames),
    });
    validate(uri);
  });
  connection.onDidChangeTextDocument(({ textDocument: { uri, version }, contentChanges }) => {
    const template = templates.get(uri);
    if (template === undefined) return;
    for (const change of contentChanges) {
      // Offsets of each change are those of the text before it: record, then apply, one by one.
      template.validator.record(
        'range' in change
          ? {
              start: template.text.offsetAt(change.range.start),
              end: template.text.offsetAt(change.range.end),
              text: change.text,
            }
          : undefined,
      );
      template.text = TextDocument.update(template.text, [change], version);
    }
    stopTimers(template);
    template.timer = setTimeout(() => validate(uri), debounceMs);
  });
  connection.onDidCloseTextDocument(({ textDocument: { uri } }) => {
    const template = templates.get(uri);
    if (template === undefined) return;
    stopTimers(template);
    templates.delete(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  });

  const open = (uri: string): OpenTemplate | undefined => {
    const template = templates.get(uri);
    return template === undefined ? undefined : { text: template.text, format: formatOf(uri), parsed: template.parsed };
  };

  connection.onCompletion(({ textDocument, position }) => {
    const template = open(textDocument.uri);
    return template === undefined ? [] : completeAt(template, template.text.offsetAt(position));
  });
  connection.onHover(({ textDocument, position }) => {
    const template = open(textDocument.uri);
    return template === undefined ? null : hoverAt(template, template.text.offsetAt(position));
  });
  connection.onDefinition(({ textDocument, position }) => {
    const template = open(textDocument.uri);
    return template === undefined ? null : definitionAt(template, textDocument.uri, template.text.offsetAt(position));
  });
  connection.onCodeAction(({ textDocument, context }) => {
    const template = open(textDocument.uri);
    if (template === undefined) return [];
    const actions: CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      const suggestion = isObject(diagnostic.data) ? diagnostic.data['suggestion'] : undefined;
      if (typeof suggestion !== 'string') continue;
      const range = {
        start: template.text.offsetAt(diagnostic.range.start),
        end: template.text.offsetAt(diagnostic.range.end),
      };
      const edit = suggestionEdit(template.text.getText(), range, suggestion, template.format);
      if (edit === undefined) continue;
      actions.push({
        title: `Change to ${edit.newText}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        edit: {
          changes: {
            [textDocument.uri]: [
              {
                range: {
                  start: template.text.positionAt(edit.range.start),
                  end: template.text.positionAt(edit.range.end),
                },
                newText: edit.newText,
              },
            ],
          },
        },
      });
    }
    return actions;
  });

  connection.onShutdown(() => {
    for (const template of templates.values()) stopTimers(template);
    templates.clear();
  });
}

/** `yaml` for `.ndst.yml` and `.ndst.yaml`, else `json`. */
function formatOf(uri: string): SourceFormat {
  return /\.ya?ml$/i.test(uri) ? 'yaml' : 'json';
}

/** A problem as an LSP diagnostic: its span, severity, code, message and suggestion (in `data`). */
export function toDiagnostic(
  problem: Problem,
  document: TextDocument,
  format: SourceFormat,
  parsed: OpenTemplate['parsed'],
): Diagnostic {
  const text = document.getText();
  const start =
    problem.line > 0 ? document.offsetAt({ line: problem.line - 1, character: Math.max(0, problem.column - 1) }) : 0;
  const span = problemRange(problem, start, text, format, parsed);
  const diagnostic: Diagnostic = {
    range: { start: document.positionAt(span.start), end: document.positionAt(span.end) },
    severity: problem.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: problem.code,
    source: 'triad',
    message: problem.message,
  };
  if (problem.suggestion !== undefined) diagnostic.data = { suggestion: problem.suggestion };
  return diagnostic;
}
