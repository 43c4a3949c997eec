import type { DocumentPath } from '../problem.js';
import { suggestKey } from '../schema/suggest-key.js';
import { listOf, type SemanticCheck, type SemanticReporter } from './semantic-reporter.js';
import { isObject } from '@triad/common';
import { stringOrUndefined, type JsonObject } from './template-walker.js';
import {
  effectiveSecurityPolicy,
  OPCUA_DEADBAND_TYPES,
  OPCUA_IDENTITY_TYPES,
  OPCUA_SECURITY_MODES,
  OPCUA_SECURITY_POLICIES,
  parseCompactNodeId,
  parseOpcuaNode,
  securityMismatch,
} from './opcua-settings.js';

const PLACEHOLDER = /\/\{[^{}]*\}\//;

/**
 * Checks the settings of OPC UA driver entries (originTypes entries whose originType contains
 * `opcua`) and the datapoints they read: security mode, policy and identity type are words the
 * driver knows, mode and policy go together (an error: such a driver cannot connect), the
 * endpoint is an `opc.tcp://` URL, every entry of `nodes` is a NodeId or a browse path, and every
 * datapoint's `originAddress` names an entry of `nodes` or is a NodeId of the compact form.
 * Values holding a `/{NAME}/` variable are left to the device.
 */
export const checkOpcua: SemanticCheck = (model, reporter) => {
  const originTypes = model.root['originTypes'];
  if (!Array.isArray(originTypes)) return;
  const nodesByDriver = new Map<string, ReadonlySet<string>>();
  for (let i = 0; i < originTypes.length; i++) {
    const entry: unknown = originTypes[i];
    if (!isObject(entry)) continue;
    const originType = stringOrUndefined(entry['originType']);
    if (originType === undefined || !isOpcua(originType)) continue;
    const path: DocumentPath = ['originTypes', i];
    checkEndpoint(entry, path, reporter);
    checkSecurity(entry, path, reporter);
    nodesByDriver.set(originType, checkNodes(entry, path, reporter));
  }
  for (const datapoint of model.datapoints) {
    const address = datapoint.value['addressConfig'];
    if (!isObject(address)) continue;
    const originType = stringOrUndefined(address['originType']);
    const originAddress = stringOrUndefined(address['originAddress']);
    if (originType === undefined || originAddress === undefined || !isOpcua(originType)) continue;
    const nodes = nodesByDriver.get(originType) ?? new Set<string>();
    if (nodes.has(originAddress)) continue;
    const compact = parseCompactNodeId(originAddress);
    if (compact?.ok === true) continue;
    const suggestion = suggestKey(originAddress, [...nodes]);
    reporter.report('DT_WARN_SEM_OPCUA_ADDRESS_UNKNOWN', [...datapoint.path, 'addressConfig', 'originAddress'], {
      message:
        `The OPC UA address '${originAddress}' ` +
        (compact === undefined
          ? `names no entry of the driver's nodes (${listOf([...nodes]) || 'none'})`
          : `is not a NodeId: ${compact.reason}`) +
        (suggestion !== undefined ? `; did you mean '${suggestion}'?` : '.') +
        ' Write a name of nodes (where the NodeId or browse path is given in full) or a NodeId such as ' +
        'i:2258 or 2:s:Boiler.Temperature.',
      found: originAddress,
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
  }
};

function isOpcua(originType: string): boolean {
  return originType.toLowerCase().includes('opcua');
}

function checkEndpoint(entry: JsonObject, path: DocumentPath, reporter: SemanticReporter): void {
  const endpointUrl = entry['endpointUrl'];
  if (typeof endpointUrl === 'string' && PLACEHOLDER.test(endpointUrl)) return;
  if (typeof endpointUrl === 'string' && /^opc\.tcp:\/\/[^\s/:]+(:\d{1,5})?(\/\S*)?$/.test(endpointUrl)) return;
  reporter.report(
    'DT_WARN_SEM_OPCUA_ENDPOINT_INVALID',
    [...path, ...(endpointUrl === undefined ? [] : ['endpointUrl'])],
    {
      message:
        endpointUrl === undefined
          ? "The OPC UA driver has no endpointUrl; add one such as 'opc.tcp://plc.example:4840' or " +
            "'/{OPCUA_EndpointUrl}/' (filled by each device)."
          : `The OPC UA endpointUrl ${JSON.stringify(endpointUrl)} is not an opc.tcp:// URL; write it as ` +
            "'opc.tcp://host:4840' (a path after the port when the server has one).",
      ...(typeof endpointUrl === 'string' ? { found: endpointUrl } : {}),
    },
  );
}

function checkSecurity(entry: JsonObject, path: DocumentPath, reporter: SemanticReporter): void {
  const mode = known(entry['securityMode'], 'securityMode', OPCUA_SECURITY_MODES, [...path, 'securityMode'], reporter);
  const policy = known(
    entry['securityPolicy'],
    'securityPolicy',
    OPCUA_SECURITY_POLICIES,
    [...path, 'securityPolicy'],
    reporter,
  );
  const identity = entry['identity'];
  if (isObject(identity))
    known(identity['type'], 'identity.type', OPCUA_IDENTITY_TYPES, [...path, 'identity', 'type'], reporter);
  if (mode === null || policy === null) return;
  const effectiveMode = mode ?? 'None';
  const problem = securityMismatch(effectiveMode, effectiveSecurityPolicy(effectiveMode, policy));
  if (problem === undefined) return;
  reporter.report(
    'DT_ERR_SEM_OPCUA_SECURITY_MISMATCH',
    [...path, policy !== undefined ? 'securityPolicy' : 'securityMode'],
    {
      message: `The OPC UA driver cannot connect as configured: ${problem}.`,
      found: `${effectiveMode} with ${policy ?? 'no securityPolicy'}`,
    },
  );
}

/**
 * The value when it is one of `allowed`, undefined when absent, null when it cannot be judged
 * (a variable) or is wrong (reported).
 */
function known(
  value: unknown,
  name: string,
  allowed: readonly string[],
  path: DocumentPath,
  reporter: SemanticReporter,
): string | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && PLACEHOLDER.test(value)) return null;
  if (typeof value === 'string' && allowed.includes(value)) return value;
  const suggestion = typeof value === 'string' ? suggestKey(value, allowed) : undefined;
  reporter.report('DT_WARN_SEM_OPCUA_SETTING_UNKNOWN', path, {
    message:
      `The OPC UA ${name} ${JSON.stringify(value)} is unknown to the driver, which takes ${listOf(allowed, 'or')}` +
      (suggestion !== undefined ? `; did you mean '${suggestion}'?` : '.'),
    found: typeof value === 'string' ? value : JSON.stringify(value),
    allowed: allowed.join(', '),
    ...(suggestion !== undefined ? { suggestion } : {}),
  });
  return null;
}

/** Checks `nodes`; returns its names. */
function checkNodes(entry: JsonObject, path: DocumentPath, reporter: SemanticReporter): ReadonlySet<string> {
  const nodes = entry['nodes'];
  if (!isObject(nodes)) return new Set();
  for (const [name, value] of Object.entries(nodes)) {
    const here: DocumentPath = [...path, 'nodes', name];
    const settings = isObject(value) ? value : undefined;
    const node = settings !== undefined ? settings['node'] : value;
    const nodePath = settings !== undefined ? [...here, 'node'] : here;
    if (typeof node !== 'string') {
      reporter.report('DT_WARN_SEM_OPCUA_NODE_INVALID', nodePath, {
        message:
          `The OPC UA node '${name}' gives no node: write a NodeId or browse path as text, or an object ` +
          "with 'node' (and optionally samplingInterval and deadband).",
      });
      continue;
    }
    if (!PLACEHOLDER.test(node)) {
      const parsed = parseOpcuaNode(node);
      if (!parsed.ok)
        reporter.report('DT_WARN_SEM_OPCUA_NODE_INVALID', nodePath, {
          message: `The OPC UA node '${name}' cannot be read: ${parsed.reason}.`,
          found: node,
        });
    }
    const deadband = settings?.['deadband'];
    if (isObject(deadband))
      known(deadband['type'], 'deadband.type', OPCUA_DEADBAND_TYPES, [...here, 'deadband', 'type'], reporter);
  }
  return new Set(Object.keys(nodes));
}
