import { defineProblems } from '../problem-definition.js';

/** Codes for input that cannot be read or parsed. Owned by the loading module. */
export const loadProblems = defineProblems({
  DT_ERR_LOAD_SYNTAX: { severity: 'error', title: 'The text is not well-formed JSON or YAML' },
});
