/**
 * SNMP discovery: reads sysDescr from the addresses a person names, matches it with the stored
 * templates' `rangerFilter.description` (the /match logic), and proposes devices or, with `add`,
 * creates them with `ICMP_IPAddress` filled and the SNMP settings used for discovery.
 */
import { expandTargets, sweepSysDescr, type DriverRegistry, type SweepResult } from '@triad/device-drivers';
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
  readonly add?: boolean;
}

export interface DiscoveredCandidate extends SweepResult {
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
  // Each probe checks its address again when it sends (the guard); this refuses the request at once.
  const basic = snmp['basicConfig'];
  const rawPort = isObject(basic) ? basic['port'] : undefined;
  const port = typeof rawPort === 'number' || typeof rawPort === 'string' ? Number(rawPort) : 161;
  for (const address of targets) {
    const refusal = options.registry.guard.policy.checkHost(address, port);
    if (refusal !== undefined)
      throw templatesProblems.create(
        'TPL_ERR_DEVICE_ADDRESS_REFUSED',
        `The targets include ${address}, which the device address policy refuses (${refusal.rule}): ${refusal.message}`,
        { rule: refusal.rule, errors: [{ path: '/targets', message: refusal.message }] },
      );
  }
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
