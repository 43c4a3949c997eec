import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { loadDocument } from '../loading/load-document.js';
import { definitionAt } from './datapoint-definition.js';
import type { OpenTemplate } from './open-template.js';
import { completeAt } from './template-completion.js';
import { hoverAt } from './template-hover.js';

const examples = new URL('../../examples/', import.meta.url);

describe('completion, hover and definition', () => {
  it.each(['icmp-host.ndst.yaml', 'modbus-tcp-energy-meter.ndst.json'])(
    'answer at every offset of %s, and of the same text cut short, without throwing',
    (name) => {
      const text = readFileSync(new URL(name, examples), 'utf8');
      const format = name.endsWith('.json') ? 'json' : 'yaml';
      const parsed = loadDocument(text, { format });
      for (const source of [text, text.slice(0, text.length >> 1)]) {
        const template: OpenTemplate = { text: TextDocument.create('file:///t', format, 1, source), format, parsed };
        for (let offset = 0; offset <= source.length; offset++) {
          expect(() => {
            completeAt(template, offset);
            hoverAt(template, offset);
            definitionAt(template, 'file:///t', offset);
          }).not.toThrow();
        }
      }
    },
    60_000,
  );
});
