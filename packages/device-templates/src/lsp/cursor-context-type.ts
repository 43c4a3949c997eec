/** Where the cursor is in a template, worked out from the text alone (it may not parse). */
export interface CursorContext {
  /**
   * `key`: the cursor is where a key is written, `path` is the object's path. `value`: the cursor
   * is in or where a value is written, `path` is the value's path.
   */
  readonly role: 'key' | 'value';
  readonly path: readonly (string | number)[];
  /** The string the cursor is in (offsets of its content, without quotes), if it is in one. */
  readonly string?: { readonly start: number; readonly end: number };
  /** With role `key`: the key the cursor is on, when it is on one. */
  readonly key?: string;
}
