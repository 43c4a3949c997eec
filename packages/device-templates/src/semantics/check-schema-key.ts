import type { SemanticCheck } from './semantic-reporter.js';

/**
 * Warns on a root `$schema` key. Triad accepts it (editors find the schema through it, decision
 * 0004), but the published NetinDS schema closes the root and lists no `$schema`, so NetinDS
 * refuses every such template: the warning says so before the template leaves Triad.
 */
export const checkSchemaKey: SemanticCheck = (model, reporter) => {
  if (!Object.hasOwn(model.root, '$schema')) return;
  const value = model.root['$schema'];
  reporter.report('DT_WARN_SEM_SCHEMA_KEY_NETINDS', ['$schema'], {
    message:
      "NetinDS refuses a template with a root '$schema' key (its published schema allows no key it does not " +
      "list); remove '$schema' before handing the template to NetinDS, or keep the schema association " +
      'outside the file (a *.ndst.json name, or a YAML template with a # yaml-language-server: $schema= comment).',
    ...(typeof value === 'string' ? { found: value } : {}),
    suggestion: "remove '$schema'",
  });
};
