/**
 * Discovery at the addresses a person names. SNMP: reads sysDescr; OPC UA (`protocol: "opcua"`):
 * opens a session at `opc.tcp://<address>:<port>`, reads BuildInfo and browses the Objects
 * folder. Either description is matched with the stored templates' `rangerFilter.description`
 * (the /match logic; for OPC UA only templates with an OPC UA driver), and devices are proposed
 * or, with `add`, created: SNMP with `ICMP_IPAddress` filled and the SNMP settings used for
 * discovery, OPC UA with `OPCUA_EndpointUrl` and the OPC UA settings used.
 */
import {
  expandTargets,
  probeOpcuaServers,
  sweepSysDescr,
  type DriverRegistry,
  type OpcuaKeyPair,
  type OpcuaProbeResult,
  type SweepResult,
} from '@triad/device-drivers';
import { errorMessage, isObject } from '@triad/common';
import { kitProblems } from '@triad/service-kit';
import { templatesProblems } from '../errors.js';
import { findMatchingTemplates } from '../matching/find-matching-templates.js';
import type { PatternCache } from '../matching/pattern-cache.js';
import type { DeviceRecord } from '../model/device-record.js';
import type { DeviceRepository } from '../repositories/device-repository.js';
import type { TemplateRepository } from '../repositories/template-repository.js';
import type { DeviceCommands } from './device-commands.js';
import { templateDocument } from '../model/template-document.js';

export interface DiscoverRequest {
  /** Comma-separated IPv4 addresses and CIDR blocks. */
  readonly targets: string;
  /** SNMP settings in the form of a template's originTypes entry (basicConfig, snmpCommunities, snmpV3Security). */
  readonly snmp?: Readonly<Record<string, unknown>>;
  /** `snmp` (default) or `opcua`. */
  readonly protocol?: 'snmp' | 'opcua';
  /** OPC UA settings as in a template (securityMode, identity...), and `port` (default 4840). */
  readonly opcua?: Readonly<Record<string, unknown>>;
  readonly add?: boolean;
}

export interface DiscoveredCandidate extends Partial<Omit<OpcuaProbeResult, 'address' | 'error'>>, SweepResult {
  readonly templates: readonly { readonly templateId: string; readonly templateVersion: string }[];
  /** With `add`: the device created, or the one that already watched this address with that template. */
  readonly device?: DeviceRecord;
  readonly existing?: boolean;
}

export interface DiscoverDevicesOptions {
  readonly templates: TemplateRepository;
  readonly devices: DeviceRepository;
  readonly commands: DeviceCommands;
  readonly patterns: PatternCache;
  readonly registry: DriverRegistry;
  /** Starts per second (default 50). */
  readonly ratePerSecond?: number;
  /** The OPC UA client certificate to present; default one made in memory per request. */
  readonly opcuaKeyPair?: () => Promise<OpcuaKeyPair>;
}

export async function discoverDevices(
  request: DiscoverRequest,
  options: DiscoverDevicesOptions,
): Promise<DiscoveredCandidate[]> {
  let targets: string[];
  try {
    targets = expandTargets(request.targets);
  } catch (error) {
    throw kitProblems.create('SVC_ERR_BAD_REQUEST', errorMessage(error));
  }
  const snmp = request.snmp ?? {};
  const { port: opcuaPort, ...opcua } = request.opcua ?? {};
  // Each probe checks its address again when it sends (the guard); this refuses the request at once.
  const basic = snmp['basicConfig'];
  const rawPort = request.protocol === 'opcua' ? opcuaPort : isObject(basic) ? basic['port'] : undefined;
  const port =
    typeof rawPort === 'number' || typeof rawPort === 'string'
      ? Number(rawPort)
      : request.protocol === 'opcua'
        ? 4840
        : 161;
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw kitProblems.create('SVC_ERR_BAD_REQUEST', `the port must be 1 to 65535; it is ${JSON.stringify(rawPort)}`);
  for (const address of targets) {
    const refusal = options.registry.guard.policy.checkHost(address, port);
    if (refusal !== undefined)
      throw templatesProblems.create(
        'TPL_ERR_DEVICE_ADDRESS_REFUSED',
        `The targets include ${address}, which the device address policy refuses (${refusal.rule}): ${refusal.message}`,
        { rule: refusal.rule, errors: [{ path: '/targets', message: refusal.message }] },
      );
  }
  if (request.protocol === 'opcua') return discoverOpcua(targets, port, opcua, request.add === true, options);
  const swept = await sweepSysDescr(targets, {
    snmp,
    registry: options.registry,
    ratePerSecond: options.ratePerSecond ?? 50,
  });
  // Only `add` compares with the devices there are.
  const existing = request.add === true ? await options.devices.list() : [];
  const out: DiscoveredCandidate[] = [];
  for (const result of swept) {
    if (result.sysDescr === undefined) {
      out.push({ ...result, templates: [] });
      continue;
    }
    const matches = await findMatchingTemplates(options.templates, options.patterns, { description: result.sysDescr });
    const templates = matches
      .filter((m) => m.versionRank === 0)
      .map((m) => ({ templateId: m.templateId, templateVersion: m.templateVersion }));
    const chosen = templates[0];
    if (request.add !== true || chosen === undefined) {
      out.push({ ...result, templates });
      continue;
    }
    const watching = existing.find(
      (d) => d.templateId === chosen.templateId && d.variables['ICMP_IPAddress'] === result.address,
    );
    if (watching !== undefined) {
      out.push({ ...result, templates, device: watching, existing: true });
      continue;
    }
    const record = await options.templates.find(chosen.templateId, chosen.templateVersion);
    const document = templateDocument({ documentJson: record?.documentJson ?? '{}' });
    const snmpType = (document.originTypes ?? [])
      .map((entry) => entry.originType)
      .find((type) => options.registry.get(type) === options.registry.get('svc-ds-drv-snmp'));
    const device = await options.commands.create({
      name: `${result.sysDescr.split(/\s+/).slice(0, 3).join(' ')} ${result.address}`.slice(0, 200),
      templateId: chosen.templateId,
      templateVersion: chosen.templateVersion,
      variables: { ICMP_IPAddress: result.address },
      ...(snmpType !== undefined && Object.keys(snmp).length > 0 ? { drivers: { [snmpType]: snmp } } : {}),
    });
    out.push({ ...result, templates, device });
  }
  return out;
}

/** OPC UA discovery: the probe's results, matched with the templates that have an OPC UA driver. */
async function discoverOpcua(
  targets: readonly string[],
  port: number,
  settings: Readonly<Record<string, unknown>>,
  add: boolean,
  options: DiscoverDevicesOptions,
): Promise<DiscoveredCandidate[]> {
  const { registry } = options;
  const opcuaFactory = registry.get('svc-ds-drv-opcua');
  const problems = opcuaFactory?.check({ ...settings, endpointUrl: 'opc.tcp://127.0.0.1' }) ?? [];
  if (opcuaFactory === undefined || problems.length > 0)
    throw kitProblems.create('SVC_ERR_BAD_REQUEST', `opcua: ${problems.join('; ') || 'no OPC UA driver'}`);
  const probed = await probeOpcuaServers(targets, {
    settings,
    port,
    guard: registry.guard,
    ratePerSecond: options.ratePerSecond ?? 50,
    ...(options.opcuaKeyPair ? { keyPair: options.opcuaKeyPair } : {}),
  });
  const existing = add ? await options.devices.list() : [];
  // Templates with no rangerFilter pattern are for any server (the opcua starter): proposed after those that match.
  const generic = (await options.templates.list({ latestOnly: true, limit: 1000, offset: 0 })).items.filter(
    (t) => !t.rangerFilter?.description && !t.rangerFilter?.deviceID && !t.rangerFilter?.vendorID,
  );
  const out: DiscoveredCandidate[] = [];
  for (const result of probed) {
    if (result.error !== undefined) {
      out.push({ ...result, templates: [] });
      continue;
    }
    const matches = await findMatchingTemplates(options.templates, options.patterns, {
      description: result.description ?? '',
    });
    const templates: { templateId: string; templateVersion: string; originType: string }[] = [];
    for (const match of [...matches.filter((m) => m.versionRank === 0), ...generic]) {
      const originType = match.originTypes.find((type) => registry.get(type) === opcuaFactory);
      if (originType !== undefined && !templates.some((t) => t.templateId === match.templateId))
        templates.push({ templateId: match.templateId, templateVersion: match.templateVersion, originType });
    }
    const listed = templates.map(({ templateId, templateVersion }) => ({ templateId, templateVersion }));
    const chosen = templates[0];
    if (!add || chosen === undefined) {
      out.push({ ...result, templates: listed });
      continue;
    }
    const watching = existing.find(
      (d) => d.templateId === chosen.templateId && d.variables['OPCUA_EndpointUrl'] === result.endpointUrl,
    );
    if (watching !== undefined) {
      out.push({ ...result, templates: listed, device: watching, existing: true });
      continue;
    }
    const device = await options.commands.create({
      name: `${result.productName ?? 'OPC UA server'} ${result.address}`.slice(0, 200),
      templateId: chosen.templateId,
      templateVersion: chosen.templateVersion,
      variables: { OPCUA_EndpointUrl: result.endpointUrl },
      ...(Object.keys(settings).length > 0 ? { drivers: { [chosen.originType]: settings } } : {}),
    });
    out.push({ ...result, templates: listed, device });
  }
  return out;
}
