import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { problemCatalogue } from '@triad/device-templates';
import { templatesProblems } from '@triad/templates-service';
import { renderErrorsDoc } from './errors-doc.js';

const committed = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

describe('docs/errors.md', () => {
  it('is what the error catalogues generate (run `npm run docs:errors` after changing a catalogue)', () => {
    expect(committed).toBe(renderErrorsDoc());
  });
  it('lists every device-template and template-service code', () => {
    for (const code of [...Object.keys(problemCatalogue), ...Object.keys(templatesProblems.definitions)]) {
      expect(committed).toContain(`\`${code}\``);
    }
  });
});
