/**
 * The template editor's look in the console's colours: syntax colours, gutters, the active line,
 * the selection, the cursor and the tooltips take the colour tokens of `shell/styles.css`
 * (`--code-*`, `--syntax-*`), so the editor follows the light and the dark theme with the page.
 * Every syntax colour reads at 4.5:1 or more on the editor's ground, its active line and its
 * selection in both themes (`shell/colour-tokens.test.ts` checks the tokens).
 */
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import type { Extension } from '@codemirror/state';

/** The tokens of YAML and JSON templates, each in a colour token. */
const templateHighlightStyle = HighlightStyle.define([
  { tag: [t.propertyName, t.definition(t.propertyName)], color: 'var(--syntax-property)' },
  { tag: [t.string, t.special(t.string)], color: 'var(--syntax-string)' },
  { tag: t.number, color: 'var(--syntax-number)' },
  { tag: [t.bool, t.null, t.keyword, t.atom], color: 'var(--syntax-keyword)' },
  { tag: [t.comment, t.lineComment], color: 'var(--syntax-comment)', fontStyle: 'italic' },
  { tag: [t.typeName, t.labelName, t.attributeValue], color: 'var(--syntax-type)' },
  { tag: [t.meta, t.separator, t.punctuation, t.squareBracket, t.brace], color: 'var(--syntax-meta)' },
  { tag: t.invalid, color: 'var(--bad)' },
]);

/** The editor's frame in the colour tokens (CodeMirror's own theme is a light one). */
const templateEditorTheme = EditorView.theme({
  '&': { color: 'var(--code-fg)', backgroundColor: 'var(--code-bg)' },
  '.cm-content': { caretColor: 'var(--code-fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--code-fg)' },
  '.cm-gutters': { backgroundColor: 'var(--panel)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine': { backgroundColor: 'var(--panel)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--code-selection)', color: 'var(--code-fg)' },
  '.cm-selectionBackground, &.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground': {
    backgroundColor: 'var(--code-selection)',
  },
  '.cm-content ::selection': { backgroundColor: 'var(--code-selection)' },
  '.cm-selectionMatch': { backgroundColor: 'var(--code-selection)' },
  '&.cm-focused .cm-matchingBracket': { backgroundColor: 'var(--code-selection)', outline: '1px solid var(--line)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--line-strong)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: 'var(--accent)', color: 'var(--on-accent)' },
  '.cm-panels': { backgroundColor: 'var(--panel)', color: 'var(--fg)' },
});

/** Syntax colours and the editor's frame from the colour tokens, for both themes. */
export function templateEditorLook(): Extension {
  return [syntaxHighlighting(templateHighlightStyle), templateEditorTheme];
}
