/** Options of a small valid template used by the tests. */
export interface SampleOptions {
  readonly templateId?: string;
  readonly templateVersion?: string;
  readonly description?: string;
  readonly alias?: string;
  readonly originType?: string;
  readonly rangerFilter?: { deviceID?: string; vendorID?: string; description?: string };
}

/** A minimal valid template document (one map set, one polled datapoint). */
export function sampleTemplate(options: SampleOptions = {}): Record<string, unknown> {
  const originType = options.originType ?? 'svc-ds-drv-snmp';
  return {
    templateId: options.templateId ?? 'Sample Switch',
    templateVersion: options.templateVersion ?? '1.0.0',
    ...(options.alias !== undefined ? { alias: options.alias } : {}),
    description: options.description ?? 'A switch used by the tests',
    ...(options.rangerFilter !== undefined ? { rangerFilter: options.rangerFilter } : {}),
    origin: '/{ICMP_IPAddress}/',
    originTypes: [{ originType }],
    datapointSets: [
      {
        datapointSetId: 'system',
        datapointSetType: 'map',
        alias: 'System',
        description: 'System group',
        datapoints: [
          {
            commonConfig: { datapointId: 'uptime', datapointType: 'DATAPOINT', alias: 'Uptime' },
            addressConfig: {
              dataType: 'LONG',
              originType,
              originDataType: 'TimeTicks',
              originAddress: '1.3.6.1.2.1.1.3.0',
              originAccessType: 'read-only',
              receiveMode: 'polling',
              pollingGroup: '1m',
            },
          },
        ],
      },
    ],
  };
}

/** The same template as YAML text (hand-written so the tests need no YAML library). */
export function sampleTemplateYaml(options: SampleOptions = {}): string {
  const originType = options.originType ?? 'svc-ds-drv-snmp';
  const filter = options.rangerFilter;
  const lines = [
    '# A switch used by the tests',
    `templateId: ${JSON.stringify(options.templateId ?? 'Sample Switch')}`,
    `templateVersion: ${JSON.stringify(options.templateVersion ?? '1.0.0')}`,
    ...(options.alias !== undefined ? [`alias: ${JSON.stringify(options.alias)}`] : []),
    `description: ${JSON.stringify(options.description ?? 'A switch used by the tests')}`,
    ...(filter ? ['rangerFilter:', ...Object.entries(filter).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)] : []),
    'origin: /{ICMP_IPAddress}/',
    'originTypes:',
    `  - originType: ${originType}`,
    'datapointSets:',
    '  - datapointSetId: system',
    '    datapointSetType: map',
    '    alias: System',
    '    description: System group',
    '    datapoints:',
    '      - commonConfig: { datapointId: uptime, datapointType: DATAPOINT, alias: Uptime }',
    '        addressConfig:',
    '          dataType: LONG',
    `          originType: ${originType}`,
    '          originDataType: TimeTicks',
    '          originAddress: 1.3.6.1.2.1.1.3.0',
    '          originAccessType: read-only',
    '          receiveMode: polling',
    '          pollingGroup: 1m',
    '',
  ];
  return lines.join('\n');
}
