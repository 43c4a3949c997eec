import { defineProblems } from '../problem-definition.js';

/**
 * Codes for input that cannot be read as a template. Owned by the loading module.
 *
 * Every one is an error: `loadDocument` throws a `DocumentLoadError` carrying one problem with
 * one of these codes, and nothing else is checked for that input.
 */
export const loadProblems = defineProblems({
  DT_ERR_LOAD_SYNTAX: { severity: 'error', title: 'The text is not well-formed JSON or YAML' },
  DT_ERR_LOAD_TOO_LARGE: { severity: 'error', title: 'The input is larger than the size limit' },
  DT_ERR_LOAD_ENCODING: { severity: 'error', title: 'The bytes are not valid UTF-8' },
  DT_ERR_LOAD_EMPTY: { severity: 'error', title: 'The document holds no value' },
  DT_ERR_LOAD_DUPLICATE_KEY: { severity: 'error', title: 'An object or mapping names the same key twice' },
  DT_ERR_LOAD_TOO_DEEP: { severity: 'error', title: 'Objects and arrays are nested deeper than the limit' },
  DT_ERR_LOAD_NOT_FINITE: {
    severity: 'error',
    title: 'A number is infinite or not a number, which JSON data cannot hold',
  },
  DT_ERR_LOAD_MULTIPLE_DOCUMENTS: { severity: 'error', title: 'A YAML file holds more than one document' },
  DT_ERR_LOAD_KEY_NOT_STRING: { severity: 'error', title: 'A YAML mapping key is not a string' },
  DT_ERR_LOAD_MERGE_KEY: { severity: 'error', title: 'A YAML merge key (<<) is used; merge keys are not supported' },
  DT_ERR_LOAD_TAG: { severity: 'error', title: 'A YAML tag other than the JSON-compatible core tags is used' },
  DT_ERR_LOAD_ALIAS_LIMIT: { severity: 'error', title: 'YAML aliases expand to more nodes than the limit' },
  DT_ERR_LOAD_ALIAS_CYCLE: { severity: 'error', title: 'A YAML alias refers to a node that contains it' },
});

export type LoadProblemCode = keyof typeof loadProblems;
