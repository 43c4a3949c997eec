import { defineProblems } from '../problem-definition.js';

/**
 * Codes for checks beyond the schema. Owned by the semantics module. (What the expression
 * compiler finds in the template's expressions keeps the expression module's codes,
 * `DT_ERR_EXPR_*` and `DT_WARN_EXPR_*`.)
 *
 * - `DT_ERR_SEM_*`: the template cannot run as written though the schema accepts it (calculated
 *   datapoints that read each other in a cycle).
 * - `DT_WARN_SEM_*`: cross-references and meaning the schema cannot express (a driver that is
 *   not declared, a unit convert-units does not know, a widget outside the grid...). Warnings;
 *   validation under `--strict` turns them into errors.
 * - `DT_WARN_QUIRK_*`: input the schema accepts because of a quirk of the published schema
 *   (open objects, lax patterns, dead branches) but that is almost surely a mistake.
 */
export const semanticProblems = defineProblems({
  // Drivers (origin types) and substitution variables
  DT_WARN_SEM_SCHEMA_KEY_NETINDS: {
    severity: 'warning',
    title: 'The template has a root $schema key, which the published NetinDS schema refuses',
  },
  DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED: {
    severity: 'warning',
    title: 'A datapoint uses a driver not declared in originTypes',
  },
  DT_WARN_SEM_ORIGIN_TYPES_MISSING: {
    severity: 'warning',
    title: 'Datapoints use drivers but the template has no originTypes',
  },
  DT_WARN_SEM_ORIGIN_TYPE_UNUSED: {
    severity: 'warning',
    title: 'A driver declared in originTypes is used by no datapoint',
  },
  DT_WARN_SEM_ORIGIN_TYPE_DUPLICATE: {
    severity: 'warning',
    title: 'Two originTypes entries declare the same driver with different settings',
  },
  DT_WARN_SEM_VARIABLE_UNKNOWN: {
    severity: 'warning',
    title: 'A /{NAME}/ variable that nothing fills, or a near miss of a discovery variable',
  },
  DT_WARN_SEM_VARIABLE_MALFORMED: {
    severity: 'warning',
    title: 'A discovery variable is not written in the /{NAME}/ form',
  },
  DT_WARN_SEM_SECRET_LITERAL: {
    severity: 'warning',
    title: 'A template setting holds a literal secret (community, password, key, token) that its readers can see',
  },
  DT_WARN_SEM_MQTT_SET_UNKNOWN: {
    severity: 'warning',
    title: 'An MQTT topic fills a datapointSet that does not exist',
  },
  DT_WARN_SEM_MQTT_STRATEGY_UNKNOWN: {
    severity: 'warning',
    title: 'An MQTT origin strategy is not one of topic, property, address, clientId, origin',
  },
  DT_WARN_SEM_MQTT_STRATEGY_INCOMPLETE: {
    severity: 'warning',
    title: 'An MQTT origin strategy lacks the key it works from',
  },
  DT_WARN_SEM_MQTT_OPERATION_MODE_UNKNOWN: {
    severity: 'warning',
    title: 'An MQTT operation mode is not one of extract, transform',
  },
  DT_ERR_SEM_SNMP_ADDRESS_MALFORMED: {
    severity: 'error',
    title: 'An SNMP address is neither a dotted decimal OID nor a MIB name',
  },
  DT_ERR_SEM_SNMP_NAME_UNKNOWN: {
    severity: 'error',
    title: 'An SNMP address names a MIB object that no MIB module read defines',
  },
  DT_ERR_SEM_OPCUA_SECURITY_MISMATCH: {
    severity: 'error',
    title: 'An OPC UA securityMode and securityPolicy do not go together (SignAndEncrypt with policy None...)',
  },
  DT_WARN_SEM_OPCUA_SETTING_UNKNOWN: {
    severity: 'warning',
    title: 'An OPC UA securityMode, securityPolicy, identity.type or deadband.type is unknown to the driver',
  },
  DT_WARN_SEM_OPCUA_ENDPOINT_INVALID: {
    severity: 'warning',
    title: 'An OPC UA driver has no endpointUrl or one that is not an opc.tcp:// URL',
  },
  DT_WARN_SEM_OPCUA_NODE_INVALID: {
    severity: 'warning',
    title: "An entry of an OPC UA driver's nodes is neither a NodeId nor a browse path",
  },
  DT_WARN_SEM_OPCUA_ADDRESS_UNKNOWN: {
    severity: 'warning',
    title: "An OPC UA originAddress names no entry of the driver's nodes and is not a NodeId",
  },

  // Datapoint sets and tables
  DT_WARN_SEM_DATAPOINT_ID_DUPLICATE: { severity: 'warning', title: 'Two datapoints of one set share a datapointId' },
  DT_WARN_SEM_TABLE_INDEX_UNKNOWN: { severity: 'warning', title: 'A table index names no datapoint of its set' },
  DT_WARN_SEM_TABLE_ROOT_ADDRESS_EMPTY: { severity: 'warning', title: 'A table set has no rootAddress' },
  DT_WARN_SEM_ROW_FILTER_NOT_TABLE: {
    severity: 'warning',
    title: 'rowFilterConfig is used in a set that is not a table',
  },
  DT_WARN_SEM_ROUTING_WITHOUT_BROADCAST: {
    severity: 'warning',
    title: 'routing is set while broadcast is not true, so it has no effect',
  },

  // Units
  DT_WARN_SEM_UNIT_UNKNOWN: { severity: 'warning', title: 'A unit is not known to convert-units 2.x' },
  DT_WARN_SEM_UNIT_MEASURE_MISMATCH: {
    severity: 'warning',
    title: 'unitsConfig converts between units of different measures',
  },
  DT_WARN_SEM_UNIT_EXCLUDE_MEASURE: { severity: 'warning', title: 'An excluded unit is not of the measure of from' },
  DT_WARN_SEM_UNIT_ALL_EXCLUDED: { severity: 'warning', title: 'exclude leaves toBest no unit to choose from' },

  // Expressions and alerts (the expressions themselves: DT_ERR_EXPR_*, DT_WARN_EXPR_*)
  DT_ERR_SEM_CALC_CYCLE: {
    severity: 'error',
    title: 'Calculated datapoints read each other in a cycle, so none can be computed first',
  },
  DT_WARN_SEM_SYMBOL_DUPLICATE: {
    severity: 'warning',
    title: 'Two expressions of one evaluation declare the same symbol',
  },
  DT_WARN_SEM_CALC_RAW_VALUE: {
    severity: 'warning',
    title: 'A calcConfig expression reads datapoint.rawValue, which a calculated datapoint does not have',
  },

  // Representation
  DT_WARN_SEM_REPRESENTATION_SET_UNKNOWN: {
    severity: 'warning',
    title: 'A widget shows a datapointSet that does not exist',
  },
  DT_WARN_SEM_REPRESENTATION_DATAPOINT_UNKNOWN: {
    severity: 'warning',
    title: 'A widget shows a datapoint that its set does not have',
  },
  DT_WARN_SEM_REPRESENTATION_ROW_NOT_TABLE: {
    severity: 'warning',
    title: 'A widget addresses a table row in a set that is not a table',
  },
  DT_WARN_SEM_REPRESENTATION_TIMEPOINT: { severity: 'warning', title: 'A widget shows a #TIMEPOINT datapoint' },
  DT_WARN_SEM_WIDGET_OUTSIDE_GRID: { severity: 'warning', title: 'A widget extends past the 8-column grid' },
  DT_WARN_SEM_WIDGET_OVERLAP: { severity: 'warning', title: 'Two widgets cover the same grid cells' },

  // Discovery
  DT_WARN_SEM_RANGER_REGEX_INVALID: {
    severity: 'warning',
    title: 'A rangerFilter pattern is not a valid regular expression',
  },
  DT_WARN_SEM_RANGER_REGEX_UNSUPPORTED: {
    severity: 'warning',
    title: 'A rangerFilter pattern uses syntax RE2 cannot run',
  },

  // Compatibility quirks: accepted by the published schema, almost surely mistakes
  DT_WARN_QUIRK_DATAPOINT_KEY: { severity: 'warning', title: 'A datapoint has an unknown configuration block' },
  DT_WARN_QUIRK_COMMON_CONFIG_KEY: { severity: 'warning', title: 'commonConfig has an unknown key' },
  DT_WARN_QUIRK_OPEN_OBJECT_KEY: { severity: 'warning', title: 'An object the schema leaves open has an unknown key' },
  DT_WARN_QUIRK_DEAD_BRANCH_KEY: {
    severity: 'warning',
    title: 'A datapoint has the key "defaultValueConfig, addressConfig"',
  },
  DT_WARN_QUIRK_VERSION_NOT_SEMVER: {
    severity: 'warning',
    title: 'A version passes the lax schema pattern but is not SemVer',
  },
  DT_WARN_QUIRK_EVALUATION_NO_EXPRESSIONS: {
    severity: 'warning',
    title: 'An evaluation has an empty expressions list',
  },
  DT_WARN_QUIRK_UNITS_TO_AND_TO_BEST: { severity: 'warning', title: 'unitsConfig has both to and toBest' },
  DT_WARN_QUIRK_UNITS_NO_TARGET: {
    severity: 'warning',
    title: 'unitsConfig has toBest false and no to, so nothing is converted',
  },
  DT_WARN_QUIRK_UNITS_EXCLUDE_IGNORED: {
    severity: 'warning',
    title: 'unitsConfig.exclude is set without toBest: true, so it is ignored',
  },
});

/** A code of the semantics module. */
export type SemanticProblemCode = keyof typeof semanticProblems;
