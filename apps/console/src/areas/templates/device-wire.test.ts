import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  describeEvent,
  parseDrivers,
  problemFieldLabel,
  problemPlace,
  templatePlaceholders,
  variableRowsFor,
  variablesOf,
  withEvent,
  withValue,
  type Device,
  type DeviceAlarm,
  type DeviceError,
  type DeviceProblem,
  type DeviceState,
  type DeviceValue,
  type DeviceView,
  type NewDevice,
} from './device-wire.js';
import { devicePath, parseTemplatesPath } from './templates-routes.js';

const device: Device = {
  id: 'd1',
  name: 'loopback',
  templateId: 'Ping Check',
  templateVersion: '1.0.0',
  variables: {},
  drivers: {},
  state: 'unknown',
  lastError: null,
  createdAt: '2026-11-26T07:00:00.000Z',
  updatedAt: '2026-11-26T07:00:00.000Z',
};
const empty: DeviceView = { device, alarms: [], events: [] };
const raised = {
  id: '7',
  type: 'alarm-raised',
  at: '2026-11-26T07:00:05.000Z',
  severity: 601,
  text: 'Slow echo',
  textHelp: '',
  datapointSetId: 'reachability',
  datapointId: 'roundTripTime',
  row: null,
  value: 0.05,
};

describe('device pages, pure steps', () => {
  it('finds the placeholders of origin and originTypes once each, in order, and none elsewhere', () => {
    const document = {
      origin: '/{ICMP_IPAddress}/',
      originTypes: [{ originType: 'svc-ds-drv-snmp', basicConfig: { address: '/{ICMP_IPAddress}/', x: '/{PORT_2}/' } }],
      description: '/{NOT_THIS}/',
    };
    expect(templatePlaceholders(document)).toEqual(['ICMP_IPAddress', 'PORT_2']);
    expect(templatePlaceholders(null)).toEqual([]);
  });

  it('prefills one row per placeholder, keeps typed values and other named rows, sends only filled ones', () => {
    const rows = variableRowsFor(
      ['A', 'B'],
      [
        { name: 'B', value: '2' },
        { name: 'EXTRA', value: 'x' },
        { name: '', value: 'lost' },
      ],
    );
    expect(rows).toEqual([
      { name: 'A', value: '' },
      { name: 'B', value: '2' },
      { name: 'EXTRA', value: 'x' },
    ]);
    expect(variablesOf(rows)).toEqual({ B: '2', EXTRA: 'x' });
  });

  it('refuses driver settings that are not an object of objects, at their path', () => {
    expect(parseDrivers('')).toEqual({ drivers: {} });
    expect(parseDrivers('{"svc-ds-drv-icmp": {"count": 1}}')).toEqual({ drivers: { 'svc-ds-drv-icmp': { count: 1 } } });
    expect(parseDrivers('{')).toMatchObject({ problem: { path: '/drivers' } });
    expect(parseDrivers('[]')).toMatchObject({ problem: { path: '/drivers' } });
    expect(parseDrivers('{"a": 1}')).toMatchObject({ problem: { path: '/drivers/a' } });
  });

  it('places a problem at the field its JSON Pointer names', () => {
    expect(problemPlace('/variables/ICMP_IPAddress')).toEqual({ field: 'variable', name: 'ICMP_IPAddress' });
    expect(problemPlace('/drivers/svc-ds-drv-icmp/count')).toEqual({ field: 'drivers' });
    expect(problemPlace('/templateVersion')).toEqual({ field: 'template' });
    expect(problemPlace('/name')).toEqual({ field: 'name' });
    expect(problemPlace('')).toEqual({ field: 'form' });
  });

  it("names a problem's field as the form labels it, never by its JSON Pointer", () => {
    expect(problemFieldLabel('/variables/ICMP_IPAddress')).toBe('Value of ICMP_IPAddress');
    expect(problemFieldLabel('/drivers/svc-ds-drv-icmp/count')).toBe('Driver settings');
    expect(problemFieldLabel('/templateId')).toBe('Template version');
    expect(problemFieldLabel('/name')).toBe('Name');
    expect(problemFieldLabel('')).toBe('The device');
  });

  it('replaces a datapoint reading in its place and appends a new one', () => {
    const a: DeviceValue = {
      datapointSetId: 's',
      datapointId: 'a',
      row: null,
      value: 1,
      rawValue: 1,
      quality: 'good',
      timestamp: 1,
    };
    const b = { ...a, datapointId: 'b' };
    const list = withValue(withValue([], a), b);
    expect(withValue(list, { ...a, value: 2 }).map((v) => v.value)).toEqual([2, 1]);
    expect(withValue(list, { ...a, row: '1' })).toHaveLength(3);
  });

  it('adds an alarm once, clears it, and follows state events with their error', () => {
    const up = withEvent(empty, raised);
    expect(up.alarms).toMatchObject([{ text: 'Slow echo', severity: 601, raisedAt: raised.at }]);
    expect(withEvent(up, raised)).toBe(up);
    const again = withEvent(up, { ...raised, id: '8' });
    expect(again.alarms).toHaveLength(1);
    const cleared = withEvent(again, { ...raised, id: '9', type: 'alarm-cleared' });
    expect(cleared.alarms).toEqual([]);
    expect(cleared.events.map((e) => e.id)).toEqual(['9', '8', '7']);
    const down = withEvent(cleared, {
      id: '10',
      type: 'state',
      at: raised.at,
      state: 'down',
      error: { code: 'timeout', message: 'no reply', originType: 'svc-ds-drv-icmp', at: 0 },
    });
    expect(down.device).toMatchObject({
      state: 'down',
      lastError: { message: 'no reply', at: '1970-01-01T00:00:00.000Z' },
    });
    expect(withEvent(down, { id: '11', type: 'state', at: raised.at, state: 'up' }).device.lastError).toBeNull();
  });

  it('routes /?devices and /?device=<id>, keeping the registry and editor routes', () => {
    expect(parseTemplatesPath('/?devices')).toEqual({ page: 'devices' });
    expect(parseTemplatesPath(devicePath('a b/c'))).toEqual({ page: 'device', deviceId: 'a b/c' });
    expect(parseTemplatesPath('/?edit=x&version=1')).toEqual({ page: 'editor', templateId: 'x', templateVersion: '1' });
    expect(parseTemplatesPath('/')).toEqual({ page: 'registry' });
  });
});

// The wire types name generated ones; a route renamed in the service would turn them into `never`
// silently, and `never` has every property. These checks run in `tsc -p apps/console/tsconfig.json`.
describe('device wire types', () => {
  it('name real replies and bodies of the template service', () => {
    expectTypeOf<Device['lastError']>().toEqualTypeOf<DeviceError | null>();
    expectTypeOf<DeviceState>().toEqualTypeOf<'unknown' | 'up' | 'down'>();
    expectTypeOf<DeviceError['code']>().toEqualTypeOf<string>();
    expectTypeOf<DeviceValue['row']>().toEqualTypeOf<string | null>();
    expectTypeOf<DeviceValue['timestamp']>().toEqualTypeOf<number>();
    expectTypeOf<DeviceAlarm['severity']>().toEqualTypeOf<number>();
    expectTypeOf<DeviceProblem['path']>().toEqualTypeOf<string>();
    expectTypeOf<NewDevice['templateVersion']>().toEqualTypeOf<string>();
  });

  it('names the datapoint of an event, and in its text, by the alias the template gives', () => {
    const event = {
      id: '9',
      at: '2026-11-26T07:00:05.000Z',
      type: 'alarm-raised',
      severity: 401,
      text: 'packetLoss has no value',
      datapointSetId: 'system',
      datapointId: 'packetLoss',
    };
    expect(describeEvent(event, () => 'Packet loss')).toBe(
      'Alarm raised (Warning (401)) on Packet loss: Packet loss has no value',
    );
    expect(describeEvent(event)).toBe('Alarm raised (Warning (401)) on system/packetLoss: packetLoss has no value');
  });

  it('says what a problem event refused, how many so far, and how many were left out', () => {
    const problem = {
      id: '12',
      at: '2026-12-03T04:00:00.000Z',
      type: 'problem',
      kind: 'value-refused',
      message: '"1,5" is not a valid DOUBLE',
      datapointSetId: 'climate',
      datapointId: 'temp',
      count: 7,
      notStored: 5,
    };
    expect(describeEvent(problem, () => 'Temperature')).toBe(
      'Value refused on Temperature: "1,5" is not a valid DOUBLE (7 so far; 5 more like it since the last one shown)',
    );
    expect(describeEvent({ ...problem, kind: 'payload-malformed', notStored: 0, count: 1 })).toBe(
      'Unreadable message on climate/temp: "1,5" is not a valid DOUBLE (1 so far)',
    );
  });

  it('marks an alarm acknowledged from the stream, and not acknowledged again', () => {
    const alarm = {
      id: 'a1',
      severity: 601,
      text: 'Slow echo',
      textHelp: '',
      datapointSetId: 'reachability',
      datapointId: 'roundTripTime',
      row: null,
      raisedAt: '2026-12-03T04:00:00.000Z',
      value: 12,
      acknowledged: null,
    };
    const device = { id: 'd1' } as unknown as DeviceView['device'];
    const view: DeviceView = { device, alarms: [alarm], events: [] };
    const at = '2026-12-03T04:01:00.000Z';
    const acked = withEvent(view, { id: '20', at, type: 'alarm-acknowledged', alarmId: 'a1', by: 'admin token' });
    expect(acked.alarms[0]!.acknowledged).toEqual({ by: 'admin token', at });
    const undone = withEvent(acked, { id: '21', at, type: 'alarm-unacknowledged', alarmId: 'a1' });
    expect(undone.alarms[0]!.acknowledged).toBeNull();
    expect(undone.events.map((e) => e.id)).toEqual(['21', '20']);
  });
});
