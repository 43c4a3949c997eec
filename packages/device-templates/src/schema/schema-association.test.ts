import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../loading/load-document.js';
import { renderStarter } from '../starters/render-starter.js';
import { createStarterTemplate } from '../starters/driver-starters.js';
import { validateSource } from '../validate.js';
import { templateSchema } from './template-schema.js';

const SCHEMA_TEXT = readFileSync(new URL('../../schema/device-template.schema.json', import.meta.url), 'utf8');
const GUIDE = readFileSync(new URL('../../../../docs/device-templates.md', import.meta.url), 'utf8');

function* walk(node: unknown): Generator<[string, unknown]> {
  if (Array.isArray(node)) for (const item of node) yield* walk(item);
  else if (typeof node === 'object' && node !== null)
    for (const [key, value] of Object.entries(node)) {
      yield [key, value];
      yield* walk(value);
    }
}

/** A SchemaStore fileMatch glob (`*` within a name) as a RegExp. */
function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
}

// What `triad templates schema` prints is the schema file; editors load it through a
// yaml-language-server modeline or a SchemaStore-style catalog entry (docs/device-templates.md).
describe('schema association for editors', () => {
  it('is a self-contained draft-07 schema: every $ref points inside the file', () => {
    expect(templateSchema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
    const refs = [...walk(templateSchema)].filter(([key]) => key === '$ref').map(([, ref]) => ref);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of refs) expect(ref).toMatch(/^#\/definitions\/[A-Za-z]+$/);
  });

  it('has only patterns that compile as Unicode regular expressions, as editor language services compile them', () => {
    const patterns = [...walk(templateSchema)].filter(([key, value]) => key === 'pattern' && typeof value === 'string');
    expect(patterns.length).toBeGreaterThan(5);
    for (const [, pattern] of patterns) expect(() => new RegExp(pattern as string, 'u')).not.toThrow();
  });

  it('writes the modeline yaml-language-server reads on the first line of a YAML starter, which validates', () => {
    const text = renderStarter(createStarterTemplate('snmp'), 'yaml', './device-template.schema.json');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./device-template.schema.json');
    const result = validateSource(text, { format: 'yaml', strict: true });
    expect(result.errors).toEqual([]);
  });

  it('documents a catalog entry whose fileMatch covers every template name and whose url is a schema file', () => {
    const block =
      /```json\n(\{\n {2}"\$schema": "https:\/\/json\.schemastore\.org\/schema-catalog\.json"[\s\S]*?)```/.exec(
        GUIDE.replace(/\n {2}/g, '\n'),
      );
    expect(block).not.toBeNull();
    const catalog = loadDocument(block![1]!, { format: 'json' }).value as {
      schemas: { name: string; description: string; fileMatch: string[]; url: string }[];
    };
    const [entry] = catalog.schemas;
    expect(Object.keys(entry!).sort()).toEqual(['description', 'fileMatch', 'name', 'url']);
    expect(entry!.url).toMatch(/device-template\.schema\.json$/);
    const globs = entry!.fileMatch.map(globToRegExp);
    for (const name of ['snmp-switch.ndst.yaml', 'pump.ndst.yml', 'meter.ndst.json'])
      expect(globs.some((glob) => glob.test(name))).toBe(true);
    expect(globs.some((glob) => glob.test('package.json'))).toBe(false);
    expect(JSON.parse(SCHEMA_TEXT)).toEqual(templateSchema);
  });
});
