import { suggestKey } from '../schema/suggest-key.js';
import type { DocumentPath } from '../problem.js';
import { deepEqual } from './deep-equal.js';
import { listOf, type SemanticCheck } from './semantic-reporter.js';
import { isObject, stringOrUndefined } from './template-walker.js';

interface Declaration {
  readonly path: DocumentPath;
  readonly value: unknown;
}

/**
 * Cross-checks drivers: every `addressConfig.originType` must be declared in
 * `originTypes[].originType`, every declared driver should be used, and one driver should not be
 * declared twice with different settings (exact duplicates are the schema's `uniqueItems` error).
 * When `originTypes` is absent altogether, one warning lists the drivers the datapoints use.
 */
export const checkOriginTypes: SemanticCheck = (model, reporter) => {
  const rawDeclarations = model.root['originTypes'];
  // originTypes of the wrong type is a schema error; cross-checks against it would be noise.
  if (rawDeclarations !== undefined && !Array.isArray(rawDeclarations)) return;
  const declared = new Map<string, Declaration>();
  if (Array.isArray(rawDeclarations)) {
    for (let i = 0; i < rawDeclarations.length; i++) {
      const entry: unknown = rawDeclarations[i];
      if (!isObject(entry)) continue;
      const originType = stringOrUndefined(entry['originType']);
      if (originType === undefined) continue;
      const path: DocumentPath = ['originTypes', i, 'originType'];
      const first = declared.get(originType);
      if (first === undefined) {
        declared.set(originType, { path, value: entry });
      } else if (!deepEqual(first.value, entry)) {
        reporter.report('DT_WARN_SEM_ORIGIN_TYPE_DUPLICATE', path, {
          message:
            `The driver '${originType}' is declared twice with different settings, here and at ` +
            `${reporter.describePlace(first.path)}; a driver takes one configuration per template, ` +
            'so merge the two entries into one.',
          found: originType,
        });
      }
    }
  }

  const declaredNames = [...declared.keys()];
  const used = new Map<string, DocumentPath>();
  for (const datapoint of model.datapoints) {
    const address = datapoint.value['addressConfig'];
    if (!isObject(address)) continue;
    const originType = stringOrUndefined(address['originType']);
    if (originType === undefined) continue;
    const path: DocumentPath = [...datapoint.path, 'addressConfig', 'originType'];
    if (!used.has(originType)) used.set(originType, path);
    if (rawDeclarations === undefined || declared.has(originType)) continue;
    const suggestion = suggestKey(originType, declaredNames);
    reporter.report('DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED', path, {
      message:
        `The datapoint uses the driver '${originType}', which originTypes does not declare` +
        (suggestion !== undefined ? `; did you mean '${suggestion}'?` : `; declared drivers: ${listOf(declaredNames) || 'none'}.`) +
        ' The driver only receives datapoints of a declared originType.',
      found: originType,
      allowed: declaredNames.join(', '),
      ...(suggestion !== undefined ? { suggestion } : {}),
    });
  }

  if (rawDeclarations === undefined) {
    if (used.size === 0) return;
    const firstUse = used.values().next().value as DocumentPath;
    reporter.report('DT_WARN_SEM_ORIGIN_TYPES_MISSING', [], {
      message:
        `The template has no originTypes, yet its datapoints use the driver${used.size > 1 ? 's' : ''} ` +
        `${listOf([...used.keys()])} (first at ${reporter.describePlace(firstUse)}); ` +
        'add an originTypes entry with the settings of each driver.',
      suggestion: `originTypes: [${[...used.keys()].map((name) => `{ originType: '${name}' }`).join(', ')}]`,
    });
    return;
  }
  for (const [originType, declaration] of declared) {
    if (used.has(originType)) continue;
    reporter.report('DT_WARN_SEM_ORIGIN_TYPE_UNUSED', declaration.path, {
      message:
        `The driver '${originType}' is declared in originTypes but no addressConfig.originType uses it; ` +
        'remove the entry or point the intended datapoints at it.',
      found: originType,
    });
  }
};
