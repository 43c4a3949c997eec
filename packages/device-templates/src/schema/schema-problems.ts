import { defineProblems } from '../problem-definition.js';

/** Codes for violations of the template JSON Schema. Owned by the schema module. */
export const schemaProblems = defineProblems({
  DT_ERR_SCHEMA_TYPE: { severity: 'error', title: 'A value has the wrong JSON type' },
});
