import { createStarterTemplate } from '@triad/device-templates';
import { alertConfig } from './ping-template.js';

/**
 * The SNMP starter whose only datapoint takes IF-MIB::linkDown notifications (`receiveMode:
 * subscription`, so a device of it registers for traps), with an alarm while one was received.
 */
export function trapTemplate(templateId: string): Record<string, unknown> {
  const template = createStarterTemplate('snmp', { templateId }) as {
    templateVersion: string;
    datapointSets: { datapointSetId: string; datapoints: unknown[] }[];
  };
  template.templateVersion = '1.0.0';
  template.datapointSets = [
    {
      ...template.datapointSets[0]!,
      datapointSetId: 'notifications',
      datapoints: [
        {
          commonConfig: { datapointId: 'linkDown', datapointType: 'DATAPOINT', alias: 'link down' },
          addressConfig: {
            dataType: 'OBJECT',
            originType: 'svc-ds-drv-snmp',
            originDataType: 'OCTET_STRING',
            originAddress: 'IF-MIB::linkDown',
            originAccessType: 'read-only',
            receiveMode: 'subscription',
            pollingGroup: '30s',
          },
          alertConfig: alertConfig('datapoint.value != null', 501, 'Link down', 'An interface reported linkDown'),
        },
      ],
    },
  ];
  return template;
}
