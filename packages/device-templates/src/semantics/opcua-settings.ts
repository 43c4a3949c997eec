/**
 * The words of the OPC UA driver (`svc-ds-drv-opcua`) that both the validator and the driver
 * read: security modes and policies, identity types, deadband types, and the grammar of the
 * nodes a datapoint reads (docs/devices.md, "OPC UA"; decision 0048). Pure: no I/O.
 */

/** `securityMode` values: message security of the secure channel. */
export const OPCUA_SECURITY_MODES: readonly string[] = Object.freeze(['None', 'Sign', 'SignAndEncrypt']);
/** `securityPolicy` values the driver speaks (the short names of the OPC UA policy URIs). */
export const OPCUA_SECURITY_POLICIES: readonly string[] = Object.freeze(['None', 'Basic256Sha256']);
/** `identity.type` values: who the session is opened as. */
export const OPCUA_IDENTITY_TYPES: readonly string[] = Object.freeze(['anonymous', 'username', 'certificate']);
/** `deadband.type` values of a subscribed node. */
export const OPCUA_DEADBAND_TYPES: readonly string[] = Object.freeze(['none', 'absolute', 'percent']);

/** One step of a browse path: a browse name and its namespace index (0 when not written). */
export interface OpcuaPathElement {
  readonly namespaceIndex: number;
  readonly name: string;
}

/**
 * Where a node is: a NodeId in the OPC UA text form (`i=2258`, `ns=2;s=Boiler.Temperature`,
 * `nsu=urn:x;s=T`), or a browse path from the Root folder along hierarchical references
 * (`/Objects/Server/ServerStatus/State`, `/Objects/2:Boiler/2:Temperature`).
 */
export type OpcuaNodeReference =
  | { readonly kind: 'nodeId'; readonly nodeId: string }
  | { readonly kind: 'path'; readonly path: string; readonly elements: readonly OpcuaPathElement[] };

/** Why a node reference cannot be read, or the reference. */
export type ParsedOpcuaNode =
  { readonly ok: true; readonly node: OpcuaNodeReference } | { readonly ok: false; readonly reason: string };

const NODE_ID = /^(?:(?:ns=(\d{1,5})|nsu=[^;]+);)?([isgb])=(.+)$/s;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The form an originAddress may take directly (the published schema allows no '=', ';' or '/'):
// `i:2258`, `2:s:Boiler.Temperature`, `3:g:<guid>`.
const COMPACT = /^(?:(\d{1,5}):)?([isgb]):(.+)$/s;

const HOW =
  'write a NodeId such as i=2258 or ns=2;s=Boiler.Temperature, or a browse path such as ' +
  '/Objects/Server/ServerStatus/State (a namespace index before a name: /Objects/2:Boiler)';

/** Reads a node reference as written in the driver's `nodes` settings. */
export function parseOpcuaNode(text: string): ParsedOpcuaNode {
  const trimmed = text.trim();
  if (trimmed.startsWith('/')) return parsePath(trimmed);
  const match = NODE_ID.exec(trimmed);
  if (match === null)
    return { ok: false, reason: `${JSON.stringify(text)} is neither a NodeId nor a browse path: ${HOW}` };
  return identifierProblem(match[2] ?? '', match[3] ?? '', match[1], trimmed);
}

/**
 * Reads an `originAddress` written directly as a NodeId in the form the published schema allows:
 * `[<namespace index>:]<i|s|g|b>:<identifier>` (`i:2258`, `2:s:Boiler.Temperature`). Undefined
 * when the text is not of that form (it may then name an entry of the driver's `nodes`).
 */
export function parseCompactNodeId(text: string): ParsedOpcuaNode | undefined {
  const match = COMPACT.exec(text);
  if (match === null) return undefined;
  const [, ns, type = '', identifier = ''] = match;
  const nodeId = `${ns !== undefined && ns !== '0' ? `ns=${Number(ns)};` : ''}${type}=${identifier}`;
  return identifierProblem(type, identifier, ns, nodeId);
}

function identifierProblem(type: string, identifier: string, ns: string | undefined, nodeId: string): ParsedOpcuaNode {
  if (ns !== undefined && Number(ns) > 65_535)
    return { ok: false, reason: `the namespace index ${ns} of ${nodeId} is above 65535` };
  if (type === 'i' && !(/^\d{1,10}$/.test(identifier) && Number(identifier) <= 4_294_967_295))
    return { ok: false, reason: `the numeric identifier of ${nodeId} must be a whole number from 0 to 4294967295` };
  if (type === 'g' && !GUID.test(identifier))
    return {
      ok: false,
      reason: `the GUID identifier of ${nodeId} must look like 72962b91-fa75-4ae6-8d28-b404dc7daf63`,
    };
  if (type === 'b' && !/^[A-Za-z0-9+/]*={0,2}$/.test(identifier))
    return { ok: false, reason: `the opaque identifier of ${nodeId} must be base64` };
  return { ok: true, node: { kind: 'nodeId', nodeId } };
}

function parsePath(path: string): ParsedOpcuaNode {
  const elements: OpcuaPathElement[] = [];
  for (const segment of path.slice(1).split('/')) {
    const match = /^(?:(\d{1,5}):)?(.+)$/s.exec(segment);
    const name = match?.[2]?.trim() ?? '';
    if (name === '') return { ok: false, reason: `the browse path ${JSON.stringify(path)} has an empty step: ${HOW}` };
    elements.push({ namespaceIndex: Number(match?.[1] ?? 0), name });
  }
  return { ok: true, node: { kind: 'path', path, elements } };
}

/**
 * The security policy a configuration means: the one written, else `None` without message
 * security and `Basic256Sha256` with it.
 */
export function effectiveSecurityPolicy(securityMode: string, securityPolicy: string | undefined): string {
  return securityPolicy ?? (securityMode === 'None' ? 'None' : 'Basic256Sha256');
}

/** Why a security mode and policy do not go together, or undefined when they do. */
export function securityMismatch(securityMode: string, securityPolicy: string): string | undefined {
  if (securityMode !== 'None' && securityPolicy === 'None')
    return (
      `securityMode ${securityMode} needs a security policy that signs` +
      `${securityMode === 'Sign' ? '' : ' and encrypts'}, ` +
      `but securityPolicy is None; set securityPolicy to Basic256Sha256 (or securityMode to None)`
    );
  if (securityMode === 'None' && securityPolicy !== 'None')
    return (
      `securityPolicy ${securityPolicy} is used only with message security, but securityMode is None; ` +
      `set securityMode to Sign or SignAndEncrypt (or securityPolicy to None)`
    );
  return undefined;
}
