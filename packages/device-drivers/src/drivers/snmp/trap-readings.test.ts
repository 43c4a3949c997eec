import { describe, expect, it } from 'vitest';
import type { PointRequest } from '../../driver.js';
import { mibNames } from './mib-names.js';
import { trapReadings } from './trap-readings.js';

const point = (datapointId: string, originAddress: string, receiveMode = 'subscription'): PointRequest =>
  ({
    datapointSetId: 'traps',
    datapointId,
    originAddress,
    originDataType: 'TRAP',
    dataType: 'OBJECT',
    receiveMode,
    pollingGroup: '1m',
  }) as PointRequest;

describe('trapReadings', () => {
  const trap = {
    deviceId: 'd',
    source: '192.0.2.1',
    version: '2c',
    kind: 'trap',
    trapOid: '1.3.6.1.6.3.1.1.5.3',
    upTime: 4242,
    varbinds: [{ oid: '1.3.6.1.2.1.2.2.1.1.3', value: 3 }],
  } as const;
  const resolve = (address: string) => mibNames().resolve(address).oid;

  it('fills the subscription datapoints addressed by the trap OID, by name or number', () => {
    const updates = trapReadings(
      trap,
      [
        point('linkDown', 'IF-MIB::linkDown'),
        point('linkDownByOid', '1.3.6.1.6.3.1.1.5.3'),
        point('linkUp', 'IF-MIB::linkUp'),
        point('polled', 'IF-MIB::linkDown', 'polling'),
      ],
      resolve,
      1000,
    );
    expect(updates.map((u) => u.datapointId)).toEqual(['linkDown', 'linkDownByOid']);
    expect(updates[0]).toEqual({
      datapointSetId: 'traps',
      datapointId: 'linkDown',
      rawValue: {
        trapOid: '1.3.6.1.6.3.1.1.5.3',
        kind: 'trap',
        upTime: 4242,
        varbinds: { '1.3.6.1.2.1.2.2.1.1.3': 3 },
      },
      quality: 'good',
      timestamp: 1000,
    });
  });
});
