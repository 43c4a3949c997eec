import { describe, expect, it } from 'vitest';
import { driverErrorSentence, formatValue, severityText, withAlias } from './device-words.js';

describe('device words', () => {
  it('names severities by band, with the number', () => {
    expect(severityText(801)).toBe('Critical (801)');
    expect(severityText(601)).toBe('Error (601)');
    expect(severityText(401)).toBe('Warning (401)');
    expect(severityText(201)).toBe('Info (201)');
    expect(severityText(50)).toBe('Notification (50)');
  });

  it('formats values for the locale with their unit', () => {
    expect(formatValue(0.0483, 'ms', undefined, 'en')).toBe('0.048 ms');
    expect(formatValue(12345.5, undefined, undefined, 'de')).toBe('12.345,5');
    expect(formatValue(true)).toBe('yes');
    expect(formatValue(null, 'ms')).toBe('no value');
    expect(formatValue(801, undefined, 'severity')).toBe('Critical (801)');
  });

  it('says a driver error code in words', () => {
    expect(driverErrorSentence('timeout')).toMatch(/^The device did not answer in time\./);
    expect(driverErrorSentence('brand-new')).toBe('The driver could not read the device.');
  });

  it('names the datapoint in an alarm text by its alias, whole words only', () => {
    expect(withAlias('packetLoss has no value', 'packetLoss', 'Packet loss')).toBe('Packet loss has no value');
    expect(withAlias('The driver could not read packetLoss.', 'packetLoss', 'Packet loss')).toBe(
      'The driver could not read Packet loss.',
    );
    // Part of another word, or of an expression, stays as written.
    expect(withAlias('packetLossMax is high', 'packetLoss', 'Packet loss')).toBe('packetLossMax is high');
    expect(withAlias('datapoints.packetLoss.value > 10', 'packetLoss', 'Packet loss')).toBe(
      'datapoints.packetLoss.value > 10',
    );
    expect(withAlias('rtt $1 above', 'rtt', 'Echo $& time')).toBe('Echo $& time $1 above');
    expect(withAlias('packetLoss has no value', 'packetLoss', 'packetLoss')).toBe('packetLoss has no value');
  });
});
