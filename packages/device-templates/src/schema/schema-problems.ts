import { defineProblems } from '../problem-definition.js';

/**
 * Codes for violations of the device-template JSON Schema. Every one is an error: the schema is
 * the compatibility contract (a document NetinDS rejects is rejected here too). Owned by the
 * schema module; `checkSchema` emits no other codes.
 */
export const schemaProblems = defineProblems({
  DT_ERR_SCHEMA_REQUIRED: { severity: 'error', title: 'A required key is missing' },
  DT_ERR_SCHEMA_TYPE: { severity: 'error', title: 'A value has the wrong JSON type' },
  DT_ERR_SCHEMA_PATTERN: {
    severity: 'error',
    title: 'A string does not have the required form (identifier, version, address)',
  },
  DT_ERR_SCHEMA_ENUM: { severity: 'error', title: 'A value is not one of the allowed values' },
  DT_ERR_SCHEMA_MIN_LENGTH: { severity: 'error', title: 'A string is shorter than allowed' },
  DT_ERR_SCHEMA_MAX_LENGTH: { severity: 'error', title: 'A string is longer than allowed' },
  DT_ERR_SCHEMA_MINIMUM: { severity: 'error', title: 'A number is below the allowed range' },
  DT_ERR_SCHEMA_MAXIMUM: { severity: 'error', title: 'A number is above the allowed range' },
  DT_ERR_SCHEMA_ADDITIONAL_PROPERTY: { severity: 'error', title: 'A key is not allowed at this place' },
  DT_ERR_SCHEMA_MIN_ITEMS: { severity: 'error', title: 'A list has fewer entries than required' },
  DT_ERR_SCHEMA_DUPLICATE: {
    severity: 'error',
    title: 'An identifier, severity or entry appears twice where it must be unique',
  },
  DT_ERR_SCHEMA_DATAPOINT_COMBINATION: {
    severity: 'error',
    title: 'A datapoint lacks commonConfig or a source, or combines addressConfig with calcConfig',
  },
  DT_ERR_SCHEMA_TIMEPOINT_BLOCKS: {
    severity: 'error',
    title: 'A #TIMEPOINT datapoint must have exactly commonConfig and addressConfig',
  },
  DT_ERR_SCHEMA_SEVERITY_BAND: {
    severity: 'error',
    title: 'Evaluation severities mix the log band (1-200) and the alarm band (201-1000), or lie outside both',
  },
  DT_ERR_SCHEMA_UNITS_COMBINATION: {
    severity: 'error',
    title: 'unitsConfig needs from with to, or from with toBest (without to)',
  },
  DT_ERR_SCHEMA_VALUE_MAP_INTEGER: {
    severity: 'error',
    title: 'A valueMapConfig value is a whole number, which NetinDS rejects (write it as a string)',
  },
  DT_ERR_SCHEMA_TABLE_ADDRESS_REQUIRED: { severity: 'error', title: 'A table datapoint set has no tableAddress' },
  DT_ERR_SCHEMA_INVALID: { severity: 'error', title: 'A value breaks another rule of the template schema' },
});

export type SchemaProblemCode = keyof typeof schemaProblems;
