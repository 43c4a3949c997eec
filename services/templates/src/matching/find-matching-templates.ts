import type { TemplateRepository } from '../repositories/template-repository.js';
import type { TemplateSummaryRecord } from '../model/template-record.js';
import { filterAcceptsDevice, type DiscoveredDevice } from './match-device.js';
import type { PatternCache } from './pattern-cache.js';

/**
 * Every stored version whose `rangerFilter` accepts the device, by templateId (code point order)
 * and newest version first. Patterns run under RE2 from the shared cache.
 */
export async function findMatchingTemplates(
  repository: TemplateRepository,
  patterns: PatternCache,
  device: DiscoveredDevice,
): Promise<TemplateSummaryRecord[]> {
  const candidates = await repository.listWithFilters();
  return candidates.filter((candidate) => filterAcceptsDevice(candidate.rangerFilter, device, (p) => patterns.get(p)));
}
