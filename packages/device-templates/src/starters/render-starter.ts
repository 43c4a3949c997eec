import yaml from 'js-yaml';

/**
 * Writes a starter template as text an editor can check while it is being written: JSON gets a
 * `$schema` member, YAML a `yaml-language-server` modeline, both pointing at `schemaRef`.
 */
export function renderStarter(template: Record<string, unknown>, format: 'json' | 'yaml', schemaRef: string): string {
  if (format === 'json') {
    return JSON.stringify({ $schema: schemaRef, ...template }, null, 2) + '\n';
  }
  const body = yaml.dump(template, { lineWidth: 120, noRefs: true, quotingType: '"' });
  return (
    `# yaml-language-server: $schema=${schemaRef}\n# Device template: see docs/device-templates.md for every ` +
    `field.\n${body}`
  );
}
