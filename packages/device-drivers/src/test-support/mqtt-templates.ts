/** Templates for the MQTT driver's tests and benchmark (no vitest here: the benchmark imports it). */
import { createStarterTemplate, type DeviceTemplate } from '@triad/device-templates';

/**
 * The MQTT starter template (`triad templates init --driver mqtt`: temperature and humidity from
 * `plant/line1/<origin>/telemetry`) with an alarm "Too hot" (severity 601) on temperature > 50.
 */
export function hotMqttStarter(): DeviceTemplate {
  const starter = createStarterTemplate('mqtt') as unknown as DeviceTemplate;
  const temperature = starter.datapointSets?.[0]?.datapoints[0];
  if (temperature?.commonConfig?.datapointId !== 'temperature') throw new Error('the MQTT starter changed shape');
  temperature.alertConfig = {
    evaluations: [
      {
        expressions: [{ symbol: 'hot', expression: 'datapoint.value > 50' }],
        logic: 'hot',
        severity: 601,
        text: 'Too hot',
        textHelp: 'Cool the line',
        onStartup: true,
        audited: false,
        hidden: false,
        broadcast: false,
        facility: -1,
      },
    ],
  };
  return starter;
}
