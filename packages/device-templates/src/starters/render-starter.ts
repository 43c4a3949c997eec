import yaml from 'js-yaml';

/**
 * Writes a starter template as text. YAML gets a `yaml-language-server` modeline pointing at
 * `schemaRef`, a comment NetinDS never sees. JSON gets a `$schema` member only when `schemaRef`
 * is given: NetinDS's schema refuses any root `$schema`, so by default the JSON is what NetinDS
 * accepts and editors find the schema by the `*.ndst.json` file name (SchemaStore catalog) or
 * their settings (docs/decisions/0021-published-schema-fidelity.md).
 */
export function renderStarter(
  template: Record<string, unknown>,
  format: 'json' | 'yaml',
  schemaRef: string | undefined,
): string {
  if (format === 'json') {
    return JSON.stringify(schemaRef === undefined ? template : { $schema: schemaRef, ...template }, null, 2) + '\n';
  }
  const body = yaml.dump(template, { lineWidth: 120, noRefs: true, quotingType: '"' });
  return (
    (schemaRef !== undefined ? `# yaml-language-server: $schema=${schemaRef}\n` : '') +
    `# Device template: see docs/device-templates.md for every ` +
    `field.\n${body}`
  );
}
