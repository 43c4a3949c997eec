import { createStarterTemplate } from '@triad/device-templates';

/**
 * The ICMP starter as template "Ping Check" (real `ping`, usually of 127.0.0.1), polled every
 * 5 s, with an alarm (severity 601, "Slow echo") that holds while the round-trip time is at least
 * `threshold` ms: 0 raises it at once, 1e9 never.
 */
export function pingTemplate(templateVersion: string, threshold: number): Record<string, unknown> {
  const template = createStarterTemplate('icmp', { templateId: 'Ping Check' }) as {
    templateVersion: string;
    datapointSets: { datapoints: Record<string, { pollingGroup?: string } & Record<string, unknown>>[] }[];
  };
  template.templateVersion = templateVersion;
  const [rtt] = template.datapointSets[0]!.datapoints;
  for (const datapoint of template.datapointSets[0]!.datapoints) datapoint['addressConfig']!.pollingGroup = '5s';
  rtt!['alertConfig'] = alertConfig(
    `datapoint.value >= ${threshold}`,
    601,
    'Slow echo',
    'The device answers ping slowly',
  );
  return template;
}

/** An `alertConfig` with one evaluation: `expression` holds, the alarm is raised (also at start-up). */
export function alertConfig(
  expression: string,
  severity: number,
  text: string,
  textHelp: string,
): Record<string, unknown> {
  return {
    evaluations: [
      {
        expressions: [{ symbol: 'alarm', expression }],
        logic: 'alarm',
        severity,
        text,
        textHelp,
        onStartup: true,
        audited: false,
        hidden: false,
        broadcast: false,
        facility: -1,
      },
    ],
  };
}
