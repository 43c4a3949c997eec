import { describe, expect, it } from 'vitest';
import { validateSource } from '../validate.js';
import { objectAt } from '../test-support/fixture-paths.js';
import { isSecretSetting } from './secret-setting.js';
import { placeOf, semanticWarnings, validTemplate, withCode } from './test-support/semantic-fixtures.js';

const CODE = 'DT_WARN_SEM_SECRET_LITERAL';
const secrets = (value: unknown) => withCode(semanticWarnings(value), CODE);
const snmp = (t: ReturnType<typeof validTemplate>) => objectAt(t, 'originTypes', 0);

const YAML = `templateId: Switch
templateVersion: 1.0.0
description: A switch
origin: /{ICMP_IPAddress}/
originTypes:
  - originType: svc-ds-drv-snmp
    basicConfig:
      address: /{ICMP_IPAddress}/
      port: 161
    snmpCommunities:
      readCommunity: public
      writeCommunity: ""
datapointSets:
  - datapointSetId: system
    datapointSetType: map
    alias: System
    description: ''
    datapoints:
      - commonConfig: { datapointId: sysDescr, datapointType: DATAPOINT }
        addressConfig:
          dataType: STRING
          originType: svc-ds-drv-snmp
          originDataType: OCTET_STRING
          originAddress: 1.3.6.1.2.1.1.1.0
          originAccessType: read-only
          receiveMode: polling
          pollingGroup: 30s
`;

describe('checkLiteralSecrets', () => {
  it('warns on a literal community with its own code, its path and line:column, and says to use a variable', () => {
    const result = validateSource(YAML, { file: 'switch.ndst.yaml' });
    expect(result.errors).toEqual([]);
    expect(result.warnings).toHaveLength(1);
    const [warning] = result.warnings;
    expect(warning).toMatchObject({
      code: CODE,
      severity: 'warning',
      path: '/originTypes/0/snmpCommunities/readCommunity',
      ...placeOf(YAML, 'public'),
      suggestion: '"/{SNMP_READ_COMMUNITY}/"',
    });
    expect(warning!.message).toBe(
      '`snmpCommunities.readCommunity` holds a literal secret that anyone who can read this template can see; ' +
        'use a variable such as /{SNMP_READ_COMMUNITY}/ and set it per device ("variables"), or leave the setting ' +
        'out here and give it in each device\'s driver settings ("drivers"), which are stored encrypted.',
    );
    // The secret itself is not repeated where validation output goes (CI logs, replies).
    expect(warning).not.toHaveProperty('found');
  });

  it('warns on the well-known default community "public" too: it still tells readers what devices accept', () => {
    const t = validTemplate();
    snmp(t).snmpCommunities = { readCommunity: 'public', writeCommunity: 'private' };
    expect(secrets(t).map((p) => p.path)).toEqual([
      '/originTypes/0/snmpCommunities/readCommunity',
      '/originTypes/0/snmpCommunities/writeCommunity',
    ]);
  });

  it.each([
    ['empty', ''],
    ['blank', '  '],
    ['one variable', '/{SNMP_READ_COMMUNITY}/'],
    ['two variables', '/{SITE}//{ROLE}/'],
    ['null', null],
  ])('says nothing about a secret that is %s', (_name, value) => {
    const t = validTemplate();
    snmp(t).snmpCommunities = { readCommunity: value };
    expect(secrets(t)).toEqual([]);
  });

  it('leaves a malformed ${NAME} to the variable check instead of calling it a secret', () => {
    const t = validTemplate();
    snmp(t).snmpCommunities = { readCommunity: '${COMMUNITY}' };
    const problems = semanticWarnings(t);
    expect(withCode(problems, CODE)).toEqual([]);
    expect(withCode(problems, 'DT_WARN_SEM_VARIABLE_MALFORMED')).toHaveLength(1);
  });

  it('warns on text beside a variable, and on a number', () => {
    const t = validTemplate();
    snmp(t).snmpCommunities = { readCommunity: 'site-/{SITE}/' };
    snmp(t).s7security = { password: 1234, accessProtection: true };
    expect(secrets(t).map((p) => [p.path, p.suggestion])).toEqual([
      ['/originTypes/0/snmpCommunities/readCommunity', '"/{SNMP_READ_COMMUNITY}/"'],
      ['/originTypes/0/s7security/password', '"/{SNMP_PASSWORD}/"'],
    ]);
  });

  it('matches secret names without case at any depth of a driver entry, and items of a secret list', () => {
    const t = validTemplate();
    Object.assign(snmp(t), {
      snmpV3Security: { usmUser: 'monitor', AUTHPASSWORD: 'auth-secret', privacy_password: 'priv-secret' },
      gateway: { auth: { api_key: 'k-123', bearerToken: 't-456', user: 'plain' } },
      communities: ['one', '/{SECOND}/'],
    });
    expect(secrets(t).map((p) => p.path)).toEqual([
      '/originTypes/0/snmpV3Security/AUTHPASSWORD',
      '/originTypes/0/snmpV3Security/privacy_password',
      '/originTypes/0/gateway/auth/api_key',
      '/originTypes/0/gateway/auth/bearerToken',
      '/originTypes/0/communities/0',
    ]);
    expect(secrets(t)[2]!.message).toMatch(/^`gateway\.auth\.api_key` holds a literal secret/);
    expect(secrets(t)[4]!.message).toMatch(/^`communities\[0\]` holds/);
  });

  it('covers the MQTT secrets: password, tls.key and tls.passphrase, a PEM key under any name, a URL password', () => {
    const t = validTemplate();
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n';
    Object.assign(objectAt(t, 'originTypes', 1), {
      brokerUrl: 'mqtts://gateway:hunter2@broker.example:8883',
      username: 'gateway',
      password: 'hunter2',
      tls: { ca: '-----BEGIN CERTIFICATE-----', key: 'not-a-pem', passphrase: 'pp', rejectUnauthorized: true },
      extra: { clientKeyPem: pem },
    });
    const problems = secrets(t);
    expect(problems.map((p) => [p.path, p.suggestion])).toEqual([
      ['/originTypes/1/brokerUrl', undefined],
      ['/originTypes/1/password', '"/{MQTT_PASSWORD}/"'],
      ['/originTypes/1/tls/key', '"/{MQTT_TLS_KEY}/"'],
      ['/originTypes/1/tls/passphrase', '"/{MQTT_PASSPHRASE}/"'],
      ['/originTypes/1/extra/clientKeyPem', '"/{MQTT_CLIENT_KEY_PEM}/"'],
    ]);
    expect(problems[0]!.message).toContain('`brokerUrl` holds a URL with a literal password');
    expect(problems.map((p) => p.message).join('\n')).not.toContain('hunter2');
  });

  it('accepts a URL with only a user name or a variable for its password, and a key outside tls', () => {
    const t = validTemplate();
    Object.assign(objectAt(t, 'originTypes', 1), {
      brokerUrl: 'mqtt://gateway:/{MQTT_PASSWORD}/@broker.example',
      fallbackUrl: 'mqtt://gateway@broker.example',
      mapping: { key: 'temperature' },
      accessProtection: false,
    });
    expect(secrets(t)).toEqual([]);
  });

  it('warns on a secret in a routing serviceConfig and points to the consuming service', () => {
    const t = validTemplate();
    objectAt(t, 'datapointSets', 0).routing = { topic: 'device-info', serviceConfig: { password: 'p4ss' } };
    const [problem, ...rest] = secrets(t);
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ path: '/datapointSets/0/routing/serviceConfig/password' });
    expect(problem).not.toHaveProperty('suggestion');
    expect(problem!.message).toContain('`routing.serviceConfig.password` holds a literal secret');
    expect(problem!.message).toContain('configuration of the service that consumes the data');
  });

  it('leaves the datapoints alone: a valueMapConfig key is not a secret', () => {
    expect(secrets(validTemplate())).toEqual([]);
  });
});

describe('isSecretSetting', () => {
  it.each([
    ['readCommunity'],
    ['writeCommunity'],
    ['community'],
    ['password'],
    ['authPassword'],
    ['privacyPassword'],
    ['privPassword'],
    ['authKey'],
    ['privKey'],
    ['passphrase'],
    ['token'],
    ['accessToken'],
    ['apiKey'],
    ['X-API-KEY'],
    ['secret'],
    ['clientSecret'],
  ])('%s holds a secret', (key) => {
    expect(isSecretSetting(key)).toBe(true);
  });

  it.each([['usmUser'], ['username'], ['address'], ['passwordFile'], ['tokenUrl'], ['key'], ['accessProtection']])(
    '%s does not',
    (key) => {
      expect(isSecretSetting(key)).toBe(false);
    },
  );

  it('counts key as a secret inside tls only', () => {
    expect(isSecretSetting('key', 'tls')).toBe(true);
    expect(isSecretSetting('key', 'mapping')).toBe(false);
  });
});
