import type { DocumentPath } from '../problem.js';
import { deepEqual } from './deep-equal.js';
import { listOf, type SemanticCheck } from './semantic-reporter.js';
import { isObject } from '@triad/common';
import { stringOrUndefined } from './template-walker.js';
import { suggestName } from './suggest-name.js';

interface Declaration {
  readonly path: DocumentPath;
  readonly value: unknown;
}

/**
 * Cross-checks drivers: every `addressConfig.originType` must be declared in
 * `originTypes[].originType`, every declared driver should be used, and one driver should not be
 * declared twice with different settings (exact duplicates are the schema's `uniqueItems` error).
 * An undeclared driver is reported once, at its first use. When `originTypes` is absent
 * altogether, one warning lists the drivers the datapoints use.
 */
export const checkOriginTypes: SemanticCheck = (model, reporter) => {
  const rawDeclarations = model.root['originTypes'];
  // originTypes of the wrong type is a schema error; cross-checks against it would be noise.
  if (rawDeclarations !== undefined && !Array.isArray(rawDeclarations)) return;
  const declared = new Map<string, Declaration>();
  let declaredCount = 0;
  if (Array.isArray(rawDeclarations)) {
    for (let i = 0; i < rawDeclarations.length; i++) {
      const entry: unknown = rawDeclarations[i];
      if (!isObject(entry)) continue;
      const originType = stringOrUndefined(entry['originType']);
      if (originType === undefined) continue;
      declaredCount++;
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
  const used = new Map<string, { readonly first: DocumentPath; count: number }>();
  for (const datapoint of model.datapoints) {
    const address = datapoint.value['addressConfig'];
    if (!isObject(address)) continue;
    const originType = stringOrUndefined(address['originType']);
    if (originType === undefined) continue;
    const use = used.get(originType);
    if (use === undefined)
      used.set(originType, { first: [...datapoint.path, 'addressConfig', 'originType'], count: 1 });
    else use.count++;
  }

  // One warning per undeclared driver, at its first use: a driver left out of originTypes would
  // otherwise give one identical warning per datapoint. Entries of the wrong shape are schema
  // errors and make the list of declared drivers unreliable, so nothing is reported then.
  if (Array.isArray(rawDeclarations) && declaredCount === rawDeclarations.length) {
    for (const [originType, use] of used) {
      if (declared.has(originType)) continue;
      const suggestion = suggestName(originType, declaredNames);
      reporter.report('DT_WARN_SEM_ORIGIN_TYPE_UNDECLARED', use.first, {
        message:
          `The driver '${originType}', used by this datapoint` +
          (use.count > 1 ? ` and ${use.count - 1} more` : '') +
          ', is not declared in originTypes' +
          (suggestion !== undefined
            ? `; did you mean '${suggestion}'?`
            : `; declared drivers: ${listOf(declaredNames) || 'none'}.`) +
          ' A driver only receives the datapoints of an originType declared for it.',
        found: originType,
        allowed: declaredNames.join(', '),
        ...(suggestion !== undefined ? { suggestion } : {}),
      });
    }
  }

  if (rawDeclarations === undefined) {
    if (used.size === 0) return;
    const firstUse = (used.values().next().value as { readonly first: DocumentPath }).first;
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
