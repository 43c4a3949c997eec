/**
 * Where the cursor is in a JSON or YAML template: the path of the object or field it is in, read
 * from CodeMirror's syntax tree (Lezer's JSON and YAML grammars), and whether a key or a value is
 * being typed. Array items are the step `0` (the schema treats every item alike).
 */
import type { EditorState } from '@codemirror/state';
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { SyntaxNode } from '@lezer/common';
import type { PathStep } from './schema-completion.js';

/** What is being typed at the cursor. */
export interface CursorPlace {
  /** `key`: a key of the object at `path`; `value`: the value of the field at `path`. */
  readonly kind: 'key' | 'value';
  readonly path: readonly PathStep[];
  /** Where the word being typed starts (the completion replaces from here). */
  readonly from: number;
  /** The word typed so far, without quotes. */
  readonly typed: string;
}

const KEY_NODES = new Set(['Key', 'PropertyName']);
const PAIR_NODES = new Set(['Pair', 'Property']);

function unquote(text: string): string {
  return text.replace(/^["']|["']$/g, '');
}

/** The key of a Pair or Property node, unquoted. */
function keyOf(state: EditorState, pair: SyntaxNode): string | undefined {
  const key = pair.firstChild;
  return key && KEY_NODES.has(key.name) ? unquote(state.sliceDoc(key.from, key.to)) : undefined;
}

/** The colon of a Pair or Property: where its value starts. */
function colonEnd(pair: SyntaxNode): number | undefined {
  for (let child = pair.firstChild; child; child = child.nextSibling) if (child.name === ':') return child.to;
  return undefined;
}

/** The path of the innermost object or field containing `pos`, by walking the tree upwards. */
function pathAt(state: EditorState, node: SyntaxNode | null, pos: number): { path: PathStep[]; inValue: boolean } {
  const path: PathStep[] = [];
  let inValue = false;
  let first = true;
  for (let current = node; current; current = current.parent) {
    if (PAIR_NODES.has(current.name)) {
      const colon = colonEnd(current);
      const key = keyOf(state, current);
      if (colon !== undefined && pos >= colon && key !== undefined) {
        path.unshift(key);
        if (first) inValue = true;
      }
      first = false;
    } else if (current.name === 'Item' || (current.parent?.name === 'Array' && current.name !== '[')) {
      path.unshift(0);
      first = false;
    } else if (current.name === 'BlockMapping' || current.name === 'FlowMapping' || current.name === 'Object') {
      first = false;
    }
  }
  return { path, inValue };
}

/** How long `cursorPlace` may parse a document the editor has not parsed up to the cursor. */
const PARSE_BUDGET_MS = 1_000;

/**
 * The place at `pos`: a key being typed (the word at the start of a YAML line, after `- `, or a
 * JSON property name) or a value being typed (after `key:`).
 */
export function cursorPlace(state: EditorState, pos: number): CursorPlace {
  const line = state.doc.lineAt(pos);
  const before = state.sliceDoc(line.from, pos);
  const word = /["']?([A-Za-z0-9_$#&@.-]*)$/.exec(before);
  const typed = word?.[1] ?? '';
  const from = pos - (word?.[0].length ?? 0);
  // The state's own tree is only what its first parse slice reached (under a thousand characters
  // when no view has parsed further); a cursor past it got the wrong path. Finish the parse up to
  // the cursor first. In the editor the view has parsed ahead, so this returns at once; the budget
  // only bounds a cold state, and what it parses stays parsed for the next call.
  const tree = ensureSyntaxTree(state, pos, PARSE_BUDGET_MS) ?? syntaxTree(state);
  const node = tree.resolveInner(pos, -1);
  // A YAML key at the start of a line (possibly after "- "): the tree may not have a Pair yet.
  const yamlKey = /^\s*(-\s+)*["']?[A-Za-z0-9_$#&@-]*$/.test(before);
  const { path, inValue } = pathAt(state, node, pos);
  if (KEY_NODES.has(node.name) || (yamlKey && !before.includes('{'))) {
    // Typing a key: the tree may put the half-typed word in the value of the pair above it.
    const keyPath = inValue && !KEY_NODES.has(node.name) ? path.slice(0, -1) : path;
    return { kind: 'key', path: keyPath, from, typed };
  }
  if (node.name === 'JsonText' || node.name === 'Object' || node.name === '{' || node.name === ',') {
    return { kind: 'key', path, from, typed };
  }
  return { kind: inValue ? 'value' : 'key', path, from, typed };
}
