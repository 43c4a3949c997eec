import { defineProblems } from '../problem-definition.js';

/** Codes for checks beyond the schema (warnings unless validation is strict). Owned by the semantics module. */
export const semanticProblems = defineProblems({
  DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED: { severity: 'warning', title: 'A datapoint uses a driver not declared in originTypes' },
});
