/**
 * The template editor: CodeMirror 6 with YAML or JSON, diagnostics from the template service's
 * validator (`POST /validate`, debounced; see docs/console.md for why the service and not a
 * bundled validator), schema completion, and a way to move the cursor to a problem. This module
 * and its CodeMirror dependencies form the lazily loaded editor chunk.
 */
import { basicSetup } from 'codemirror';
import { autocompletion } from '@codemirror/autocomplete';
import { json } from '@codemirror/lang-json';
import { yaml } from '@codemirror/lang-yaml';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import schema from '@triad/device-templates/schema.json';
import { problemRange } from './problem-positions.js';
import { templateEditorLook } from './template-highlight.js';
import { isSchemaNode, type SchemaNode } from './schema-completion.js';
import { templateCompletions } from './template-completions.js';
import { validateTemplate, type SourceFormat, type TemplateProblem } from './templates-api.js';

const TEMPLATE_SCHEMA: SchemaNode = isSchemaNode(schema) ? schema : {};

/** Wait after the last keystroke before validating, ms. */
export const VALIDATE_DELAY_MS = 120;

export interface TemplateEditorOptions {
  readonly parent: HTMLElement;
  readonly text: string;
  readonly format: SourceFormat;
  /** Label of the editing area for assistive technology. */
  readonly label: string;
  /** Every validation's problems (errors, then warnings), and how long it took from the last edit. */
  readonly onProblems: (problems: readonly TemplateProblem[], elapsedMs: number) => void;
  /** Called on every change of the text. */
  readonly onChange?: (text: string) => void;
}

/** A mounted editor. */
export interface TemplateEditor {
  text(): string;
  /** Moves the cursor to a 1-based line and column, scrolls there and focuses the editor. */
  goTo(line: number, column: number): void;
  /** Replaces the characters from `from` to `to` (one undoable change). */
  replace(from: number, to: number, insert: string): void;
  destroy(): void;
}

/** Mounts an editor in `options.parent`. */
export function createTemplateEditor(options: TemplateEditorOptions): TemplateEditor {
  let lastEdit = performance.now();
  let inFlight: AbortController | undefined;
  const lintSource = async (view: EditorView): Promise<Diagnostic[]> => {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const text = view.state.doc.toString();
    let reply;
    try {
      reply = await validateTemplate(text, options.format, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return [];
      throw error;
    }
    const problems = [...reply.errors, ...reply.warnings];
    options.onProblems(problems, performance.now() - lastEdit);
    const doc = view.state.doc;
    return problems.map((problem) => ({
      ...problemRange(doc, problem.line, problem.column),
      severity: problem.severity,
      source: problem.code,
      message: problem.message,
    }));
  };
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        basicSetup,
        templateEditorLook(),
        options.format === 'yaml' ? yaml() : json(),
        linter(lintSource, { delay: VALIDATE_DELAY_MS }),
        lintGutter(),
        autocompletion({ override: [templateCompletions(TEMPLATE_SCHEMA, options.format)] }),
        // tabindex: axe counts the scroller as keyboard-reachable only through a tabindex'd child.
        EditorView.contentAttributes.of({ 'aria-label': options.label, tabindex: '0' }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          lastEdit = performance.now();
          options.onChange?.(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    text: () => view.state.doc.toString(),
    goTo(line, column) {
      const { from } = problemRange(view.state.doc, line, column);
      view.dispatch({ selection: { anchor: from }, effects: EditorView.scrollIntoView(from, { y: 'center' }) });
      view.focus();
    },
    replace(from, to, insert) {
      view.dispatch({ changes: { from, to, insert } });
    },
    destroy() {
      inFlight?.abort();
      view.destroy();
    },
  };
}
