import type { DocumentPath } from '../problem.js';

/**
 * Orders two paths of the same document as their values appear in it: array entries by index,
 * object keys in the order the document writes them, a parent before its children, and keys
 * the document lacks (missing required keys) before the keys it has, alphabetically.
 */
export function compareDocumentOrder(root: unknown, a: DocumentPath, b: DocumentPath): number {
  let node: unknown = root;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const left = a[i];
    const right = b[i];
    if (left === undefined || right === undefined) break;
    if (left !== right) return compareSiblings(node, left, right);
    node = step(node, left);
  }
  return a.length - b.length;
}

function compareSiblings(node: unknown, left: string | number, right: string | number): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  const keys = node !== null && typeof node === 'object' && !Array.isArray(node) ? Object.keys(node) : [];
  const li = keys.indexOf(String(left));
  const ri = keys.indexOf(String(right));
  if (li !== ri) return li - ri; // a missing key (-1) sorts first
  return String(left) < String(right) ? -1 : String(left) > String(right) ? 1 : 0;
}

function step(node: unknown, segment: string | number): unknown {
  if (node === null || typeof node !== 'object') return undefined;
  return Reflect.get(node, segment);
}
