import type { DocumentPath } from '../problem.js';
import type { SemanticCheck, SemanticReporter } from './semantic-reporter.js';
import { describeEvaluation } from './severity-bands.js';
import { isObject } from '@triad/common';

/**
 * Flags `routing` on a datapoint set or an alert evaluation whose `broadcast` is not true:
 * routing only takes effect for broadcast data. An evaluation without `broadcast` is left to the
 * schema (the field is required there); a set without it counts as not broadcast.
 */
export const checkRouting: SemanticCheck = (model, reporter) => {
  for (const set of model.sets) {
    const broadcast = set.value['broadcast'];
    if (broadcast === false || broadcast === undefined) {
      report(
        set.value['routing'],
        broadcast,
        [...set.path, 'routing'],
        `the datapoint set${set.id !== undefined ? ` '${set.id}'` : ''}`,
        reporter,
      );
    }
  }
  for (const datapoint of model.datapoints) {
    const alert = datapoint.value['alertConfig'];
    if (!isObject(alert) || !Array.isArray(alert['evaluations'])) continue;
    const evaluations: readonly unknown[] = alert['evaluations'];
    for (let i = 0; i < evaluations.length; i++) {
      const evaluation: unknown = evaluations[i];
      if (!isObject(evaluation) || evaluation['broadcast'] !== false) continue;
      const path: DocumentPath = [...datapoint.path, 'alertConfig', 'evaluations', i, 'routing'];
      report(evaluation['routing'], false, path, describeEvaluation(evaluation, i), reporter);
    }
  }
};

function report(
  routing: unknown,
  broadcast: false | undefined,
  path: DocumentPath,
  subject: string,
  reporter: SemanticReporter,
): void {
  if (!isObject(routing)) return;
  reporter.report('DT_WARN_SEM_ROUTING_WITHOUT_BROADCAST', path, {
    at: 'key',
    message:
      `${subject.charAt(0).toUpperCase() + subject.slice(1)} has routing but broadcast is ` +
      `${broadcast === false ? 'false' : 'not set'}; routing only takes effect for broadcast data, so set ` +
      `broadcast: true or remove routing.`,
    ...(broadcast === false ? { found: false } : {}),
    suggestion: 'broadcast: true',
  });
}
