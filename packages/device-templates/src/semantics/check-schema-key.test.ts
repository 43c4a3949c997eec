import { describe, expect, it } from 'vitest';
import { semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';

describe('checkSchemaKey', () => {
  it('warns on a root $schema key with a code of its own, saying NetinDS refuses it', () => {
    const t = { $schema: './device-template.schema.json', ...validTemplate() };
    const [problem] = withCode(semanticWarnings(t), 'DT_WARN_SEM_SCHEMA_KEY_NETINDS');
    expect(problem).toMatchObject({ path: '/$schema', found: './device-template.schema.json' });
    expect(problem!.message).toContain("NetinDS refuses a template with a root '$schema' key");
  });

  it('says nothing of a template without $schema', () => {
    expect(withCode(semanticWarnings(validTemplate()), 'DT_WARN_SEM_SCHEMA_KEY_NETINDS')).toEqual([]);
  });
});
