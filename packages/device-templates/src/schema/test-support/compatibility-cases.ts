import { at, common, evaluation, mutated, type Doc } from './base-template.js';
import { listAt, objectAt } from '../../test-support/fixture-paths.js';

/**
 * The compatibility table: one small change to a valid template per row, with the verdict
 * NetinDS gives (from the reference's tested facts and its quirks checklist, §14). A document
 * NetinDS accepts must pass, one it rejects must fail.
 */
export type Row = readonly [what: string, change: (doc: Doc) => void, accepted: boolean];

const x = (n: number): string => 'x'.repeat(n);
const VALID = true;
const INVALID = false;

const ROOT: Row[] = [
  ['the unchanged base template', () => {}, VALID],
  ['a template without origin', (d) => delete d['origin'], INVALID],
  ['a template without templateId', (d) => delete d['templateId'], INVALID],
  ['a template without templateVersion', (d) => delete d['templateVersion'], INVALID],
  ['a template without description', (d) => delete d['description'], INVALID],
  ['a template without datapointSets', (d) => delete d['datapointSets'], INVALID],
  [
    'a template without the optional schemaVersion, alias, rangerFilter and representation',
    (d) => {
      for (const key of ['schemaVersion', 'alias', 'rangerFilter', 'representation']) delete d[key];
    },
    VALID,
  ],
  ['a template without originTypes (quirk 9)', (d) => delete d['originTypes'], VALID],
  ['an unknown root key', (d) => (d['templateID'] = 'x'), INVALID],
  // Triad's one deliberate difference (docs/device-templates.md): editors need "$schema" in JSON.
  [
    'a root "$schema" key (accepted by Triad, rejected by NetinDS)',
    (d) => (d['$schema'] = './device-template.schema.json'),
    VALID,
  ],
  ['a non-string root "$schema" key', (d) => (d['$schema'] = 1), INVALID],
  ['a templateId with spaces', (d) => (d['templateId'] = 'SIMATIC ET200M IM153-4PN'), VALID],
  ['a templateId with a dot', (d) => (d['templateId'] = 'a.b'), INVALID],
  ['a templateId of 80 characters', (d) => (d['templateId'] = x(80)), VALID],
  ['a templateId of 81 characters', (d) => (d['templateId'] = x(81)), INVALID],
  ['a fixed origin name', (d) => (d['origin'] = '192.168.1.1'), VALID],
  ['an origin variable with text after it', (d) => (d['origin'] = '/{ICMP_IPAddress}/x'), INVALID],
  ['an origin with a space', (d) => (d['origin'] = 'a b'), INVALID],
  ['an origin of 81 characters', (d) => (d['origin'] = x(81)), INVALID],
  ['an empty description', (d) => (d['description'] = ''), INVALID],
  ['a description of 800 characters', (d) => (d['description'] = x(800)), VALID],
  ['a description of 801 characters', (d) => (d['description'] = x(801)), INVALID],
  ['an empty alias', (d) => (d['alias'] = ''), INVALID],
  ['an alias of 81 characters', (d) => (d['alias'] = x(81)), INVALID],
  ['a schemaVersion "1.0"', (d) => (d['schemaVersion'] = '1.0'), INVALID],
  ['an unknown rangerFilter key (quirk 3)', (d) => (objectAt(d, 'rangerFilter').sysObjectID = 'x'), VALID],
  ['a numeric rangerFilter deviceID', (d) => (objectAt(d, 'rangerFilter').deviceID = 10), INVALID],
  ['an empty rangerFilter description', (d) => (objectAt(d, 'rangerFilter').description = ''), INVALID],
];

const ACCEPTED_VERSIONS = [
  '1.0.0',
  'v1.0.0',
  '0.0.10',
  '1.2.3-beta.1',
  '1.2.3+build.5',
  '1.2.3.4',
  '1x2x3',
  '1.2.3 foo',
  'foo 1.2.3',
  '1.2.3-',
];
const REJECTED_VERSIONS = ['1.2', '01.2.3', '1.2.3foo'];
const VERSIONS: Row[] = [
  ...ACCEPTED_VERSIONS.map((v): Row => [`templateVersion "${v}" (quirk 5)`, (d) => (d['templateVersion'] = v), VALID]),
  ...REJECTED_VERSIONS.map((v): Row => [`templateVersion "${v}"`, (d) => (d['templateVersion'] = v), INVALID]),
];

const ORIGIN_TYPES: Row[] = [
  ['an empty originTypes list', (d) => (d['originTypes'] = []), INVALID],
  [
    'two identical originTypes entries',
    (d) => listAt(d, 'originTypes').push(structuredClone(objectAt(d, 'originTypes', 0))),
    INVALID,
  ],
  [
    'two entries for one driver with different settings (quirk 9)',
    (d) => listAt(d, 'originTypes').push({ originType: 'svc-ds-drv-snmp', port: 1161 }),
    VALID,
  ],
  ['an originType with an underscore', (d) => (objectAt(d, 'originTypes', 0).originType = 'svc_ds_drv'), INVALID],
  ['an originTypes entry without originType', (d) => delete objectAt(d, 'originTypes', 0).originType, INVALID],
  [
    'driver-specific keys in an originTypes entry',
    (d) => (objectAt(d, 'originTypes', 0).snmpCommunities = { readCommunity: 'public' }),
    VALID,
  ],
];

const SETS: Row[] = [
  ['an empty datapointSets list', (d) => (d['datapointSets'] = []), INVALID],
  ['two sets with the same datapointSetId', (d) => (at.portsSet(d).datapointSetId = 'system'), INVALID],
  ['a datapointSetId of 40 characters', (d) => (at.systemSet(d).datapointSetId = x(40)), VALID],
  ['a datapointSetId of 41 characters', (d) => (at.systemSet(d).datapointSetId = x(41)), INVALID],
  ['an unknown datapointSetType', (d) => (at.systemSet(d).datapointSetType = 'list'), INVALID],
  ['a set without alias', (d) => delete at.systemSet(d).alias, INVALID],
  ['a set without description', (d) => delete at.systemSet(d).description, INVALID],
  ['a set description of 1201 characters', (d) => (at.systemSet(d).description = x(1201)), INVALID],
  ['an unknown key in a set', (d) => (at.systemSet(d).comment = 'x'), INVALID],
  ['a table set without tableAddress', (d) => delete at.portsSet(d).tableAddress, INVALID],
  [
    'a tableStatic set without tableAddress',
    (d) => {
      at.portsSet(d).datapointSetType = 'tableStatic';
      delete at.portsSet(d).tableAddress;
    },
    INVALID,
  ],
  ['a table set with tableAddress {} (quirk 13)', (d) => (at.portsSet(d).tableAddress = {}), VALID],
  [
    'an unknown tableAddress key such as rootTable (quirk 3)',
    (d) => (at.portsSet(d).tableAddress = { rootTable: '1.3.6' }),
    VALID,
  ],
  ['a rootAddress of 241 characters', (d) => (objectAt(at.portsSet(d), 'tableAddress').rootAddress = x(241)), INVALID],
  [
    'an index that is not a datapointId',
    (d) => (objectAt(at.portsSet(d), 'tableAddress').indexes = ['if index']),
    INVALID,
  ],
  [
    'an index naming no datapoint of the set (quirk 10)',
    (d) => (objectAt(at.portsSet(d), 'tableAddress').indexes = ['nothing']),
    VALID,
  ],
  ['a map set with a tableAddress', (d) => (at.systemSet(d).tableAddress = { rootAddress: 'x' }), VALID],
  ['an empty datapoints list', (d) => (at.systemSet(d).datapoints = []), INVALID],
  ['routing without topic', (d) => delete objectAt(at.portsSet(d), 'routing').topic, INVALID],
  ['a routing topic of 81 characters', (d) => (objectAt(at.portsSet(d), 'routing').topic = x(81)), INVALID],
  ['a non-boolean broadcast', (d) => (at.portsSet(d).broadcast = 'yes'), INVALID],
  ['an unknown routing key of a set', (d) => (objectAt(at.portsSet(d), 'routing').qos = 1), VALID],
  [
    'two datapoints with the same datapointId in a set (quirk 10)',
    (d) => (objectAt(at.uptime(d), 'commonConfig').datapointId = 'cpuLoad'),
    VALID,
  ],
];

const DATAPOINTS: Row[] = [
  [
    'a datapoint with only commonConfig',
    (d) => (listAt(at.systemSet(d), 'datapoints')[0] = { commonConfig: common('a') }),
    INVALID,
  ],
  [
    'a datapoint with commonConfig and defaultValueConfig only',
    (d) => (at.systemSet(d).datapoints = [at.model(d)]),
    VALID,
  ],
  ['a datapoint with addressConfig and calcConfig', (d) => (at.cpu(d).calcConfig = { expression: '1' }), INVALID],
  [
    'addressConfig, calcConfig and defaultValueConfig together',
    (d) => {
      at.cpu(d).calcConfig = { expression: '1' };
      at.cpu(d).defaultValueConfig = { isDefault: true, value: 0 };
    },
    INVALID,
  ],
  [
    'commonConfig, addressConfig and defaultValueConfig',
    (d) => (at.cpu(d).defaultValueConfig = { isDefault: true, value: 0 }),
    VALID,
  ],
  [
    'commonConfig, calcConfig and defaultValueConfig',
    (d) => (at.calc(d).defaultValueConfig = { isDefault: true, rawValue: 0 }),
    VALID,
  ],
  ['a datapoint without commonConfig', (d) => delete at.cpu(d).commonConfig, INVALID],
  [
    'the literal "defaultValueConfig, addressConfig" key with commonConfig',
    (d) => (at.systemSet(d).datapoints = [{ commonConfig: common('a'), 'defaultValueConfig, addressConfig': {} }]),
    VALID,
  ],
  [
    'the literal "defaultValueConfig, addressConfig" key without commonConfig',
    (d) => (at.systemSet(d).datapoints = [{ 'defaultValueConfig, addressConfig': {} }]),
    INVALID,
  ],
  [
    'the literal "defaultValueConfig, addressConfig" key beside calcConfig (the calcConfig branch holds)',
    (d) => (at.calc(d)['defaultValueConfig, addressConfig'] = {}),
    VALID,
  ],
  [
    'the literal "defaultValueConfig, addressConfig" key with addressConfig and calcConfig',
    (d) => {
      at.cpu(d)['defaultValueConfig, addressConfig'] = {};
      at.cpu(d).calcConfig = { expression: '1' };
    },
    INVALID,
  ],
  ['an unknown object-valued datapoint key (quirk 2)', (d) => (at.uptime(d).unitConfig = { from: 'ms' }), VALID],
  ['an unknown string-valued datapoint key', (d) => (at.uptime(d).note = 'x'), INVALID],
  [
    'a #TIMEPOINT datapoint with convConfig',
    (d) => (at.timepoint(d).convConfig = { expression: 'datapoint.value' }),
    INVALID,
  ],
  ['a #TIMEPOINT datapoint with an unknown object-valued key', (d) => (at.timepoint(d).extra = {}), INVALID],
  [
    'a #TIMEPOINT datapoint with calcConfig instead of addressConfig',
    (d) => {
      delete at.timepoint(d).addressConfig;
      at.timepoint(d).calcConfig = { expression: '1' };
    },
    INVALID,
  ],
  [
    'a TIMEPOINT datapoint with convConfig',
    (d) => {
      objectAt(at.timepoint(d), 'commonConfig').datapointType = 'TIMEPOINT';
      at.timepoint(d).convConfig = { expression: 'datapoint.value' };
    },
    VALID,
  ],
  [
    'an @TIMEPOINT datapoint with alertConfig',
    (d) => (objectAt(at.cpu(d), 'commonConfig').datapointType = '@TIMEPOINT'),
    VALID,
  ],
  ['an unknown commonConfig key (quirk 1)', (d) => (objectAt(at.cpu(d), 'commonConfig').unit = '%'), VALID],
  [
    'a commonConfig key named "additionalProperties" (quirk 1)',
    (d) => (objectAt(at.cpu(d), 'commonConfig').additionalProperties = 'x'),
    INVALID,
  ],
  ['commonConfig without datapointType', (d) => delete objectAt(at.cpu(d), 'commonConfig').datapointType, INVALID],
  [
    'a datapointId of 80 characters (the message text says 40)',
    (d) => (objectAt(at.cpu(d), 'commonConfig').datapointId = x(80)),
    VALID,
  ],
  ['a datapointId of 81 characters', (d) => (objectAt(at.cpu(d), 'commonConfig').datapointId = x(81)), INVALID],
  ['a datapointId with # and &', (d) => (objectAt(at.cpu(d), 'commonConfig').datapointId = '#cpu&load'), VALID],
  ['a lower-case datapointType', (d) => (objectAt(at.cpu(d), 'commonConfig').datapointType = 'simple'), INVALID],
  ['an empty commonConfig description', (d) => (objectAt(at.cpu(d), 'commonConfig').description = ''), VALID],
  [
    'a commonConfig syntaxInfo of 1201 characters',
    (d) => (objectAt(at.cpu(d), 'commonConfig').syntaxInfo = x(1201)),
    INVALID,
  ],
  ['an empty commonConfig alias', (d) => (objectAt(at.cpu(d), 'commonConfig').alias = ''), INVALID],
];

const ADDRESS: Row[] = [
  ['an unknown addressConfig key', (d) => (objectAt(at.cpu(d), 'addressConfig').timeout = 5), INVALID],
  [
    'a subscription without pollingGroup (quirk 8)',
    (d) => {
      objectAt(at.cpu(d), 'addressConfig').receiveMode = 'subscription';
      delete objectAt(at.cpu(d), 'addressConfig').pollingGroup;
    },
    INVALID,
  ],
  ['originAccessType "readOnly"', (d) => (objectAt(at.cpu(d), 'addressConfig').originAccessType = 'readOnly'), INVALID],
  ['an S7 address with a comma', (d) => (objectAt(at.cpu(d), 'addressConfig').originAddress = 'DB1,REAL4'), INVALID],
  ['a dotted S7 address', (d) => (objectAt(at.cpu(d), 'addressConfig').originAddress = 'DB1.DBD4'), VALID],
  ['a JSON-path address', (d) => (objectAt(at.cpu(d), 'addressConfig').originAddress = '$.a.b'), VALID],
  [
    'a prefixed driver-internal address',
    (d) => (objectAt(at.cpu(d), 'addressConfig').originAddress = 'netin-ds-drv-mqtt:status'),
    VALID,
  ],
  ['an address with a slash', (d) => (objectAt(at.cpu(d), 'addressConfig').originAddress = 'a/b'), INVALID],
  ['an address with brackets', (d) => (objectAt(at.cpu(d), 'addressConfig').originAddress = 'x[0]'), INVALID],
  [
    'an addressConfig originType with an underscore',
    (d) => (objectAt(at.cpu(d), 'addressConfig').originType = 'svc_snmp'),
    INVALID,
  ],
  ['an unknown dataType', (d) => (objectAt(at.cpu(d), 'addressConfig').dataType = 'INT'), INVALID],
  ['an originDataType with a dot', (d) => (objectAt(at.cpu(d), 'addressConfig').originDataType = 'a.b'), INVALID],
  [
    'an addressConfig originType no originTypes entry declares (quirk 9)',
    (d) => (objectAt(at.cpu(d), 'addressConfig').originType = 'svc-ds-drv-other'),
    VALID,
  ],
];

const ALERTS: Row[] = [
  ['an empty evaluations list', (d) => (objectAt(at.cpu(d), 'alertConfig').evaluations = []), INVALID],
  ['an unknown alertConfig key', (d) => (objectAt(at.cpu(d), 'alertConfig').enabled = true), INVALID],
  [
    'log and alarm severities in one datapoint',
    (d) => listAt(at.cpu(d), 'alertConfig', 'evaluations').push(evaluation(100)),
    INVALID,
  ],
  [
    'two evaluations with the same severity',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 1).severity = 401),
    INVALID,
  ],
  [
    'log evaluations 1 and 200',
    (d) => (objectAt(at.cpu(d), 'alertConfig').evaluations = [evaluation(1), evaluation(200)]),
    VALID,
  ],
  [
    'alarms 201 and 1000',
    (d) => (objectAt(at.cpu(d), 'alertConfig').evaluations = [evaluation(201), evaluation(1000)]),
    VALID,
  ],
  ['severity 0', (d) => (objectAt(at.cpu(d), 'alertConfig').evaluations = [evaluation(0)]), INVALID],
  ['severity 1001', (d) => (objectAt(at.cpu(d), 'alertConfig').evaluations = [evaluation(1001)]), INVALID],
  ['severity 401.5', (d) => (objectAt(at.cpu(d), 'alertConfig').evaluations = [evaluation(401.5)]), INVALID],
  [
    'an evaluation with expressions [] (quirk 11)',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).expressions = []),
    VALID,
  ],
  [
    'an unknown evaluation key (quirk 3)',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).codes = ['a']),
    VALID,
  ],
  [
    'an evaluation without textHelp',
    (d) => delete objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).textHelp,
    INVALID,
  ],
  [
    'an evaluation without onStartup',
    (d) => delete objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).onStartup,
    INVALID,
  ],
  ['facility 255', (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).facility = 255), VALID],
  ['facility 256', (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).facility = 256), INVALID],
  ['facility -2', (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).facility = -2), INVALID],
  [
    'an evaluation text of 800 characters (the message text says 500)',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).text = x(800)),
    VALID,
  ],
  [
    'an evaluation text of 801 characters',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).text = x(801)),
    INVALID,
  ],
  [
    'an unknown key in an expression entry',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0, 'expressions', 0).note = 'x'),
    INVALID,
  ],
  [
    'an empty symbol',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0, 'expressions', 0).symbol = ''),
    INVALID,
  ],
  [
    'a symbol of 100 characters (no maximum)',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0, 'expressions', 0).symbol = x(100)),
    VALID,
  ],
  [
    'an empty expression',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0, 'expressions', 0).expression = ''),
    INVALID,
  ],
  ['a logic of 81 characters', (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).logic = x(81)), INVALID],
  [
    'a logic naming an undeclared symbol (quirk 11)',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).logic = 'a & b'),
    VALID,
  ],
  [
    'routing in an evaluation',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).routing = { topic: 'alarms' }),
    VALID,
  ],
  [
    'an unknown routing key of an evaluation',
    (d) => (objectAt(at.cpu(d), 'alertConfig', 'evaluations', 0).routing = { topic: 'alarms', qos: 1 }),
    VALID,
  ],
];

const BLOCKS: Row[] = [
  ['an unknown calcConfig key', (d) => (objectAt(at.calc(d), 'calcConfig').lang = 'js'), INVALID],
  ['a calcConfig without expression', (d) => (at.calc(d).calcConfig = {}), INVALID],
  [
    'a convConfig expression of 801 characters',
    (d) => (objectAt(at.calc(d), 'convConfig').expression = x(801)),
    INVALID,
  ],
  ['a defaultValueConfig with only isDefault', (d) => (at.model(d).defaultValueConfig = { isDefault: true }), INVALID],
  ['a defaultValueConfig without isDefault', (d) => (at.model(d).defaultValueConfig = { value: 'x' }), INVALID],
  [
    'a defaultValueConfig with isDefault and rawValue',
    (d) => (at.model(d).defaultValueConfig = { isDefault: false, rawValue: 3 }),
    VALID,
  ],
  [
    'a defaultValueConfig with an integer or object value',
    (d) => (at.model(d).defaultValueConfig = { isDefault: true, value: 3, rawValue: { a: 1 } }),
    VALID,
  ],
  [
    'a defaultValueConfig with a null value',
    (d) => (at.model(d).defaultValueConfig = { isDefault: true, value: null }),
    INVALID,
  ],
  ['an unknown defaultValueConfig key', (d) => (objectAt(at.model(d), 'defaultValueConfig').when = 'null'), INVALID],
  [
    'an unknown rowFilterConfig key (quirk 3)',
    (d) => (objectAt(at.portsSet(d), 'datapoints', 1, 'rowFilterConfig').mode = 'keep'),
    VALID,
  ],
  ['an empty rowFilterConfig', (d) => (objectAt(at.portsSet(d), 'datapoints', 1).rowFilterConfig = {}), VALID],
  ['unitsConfig from + to', (d) => (at.uptime(d).unitsConfig = { from: 'ms', to: 's', units: true }), VALID],
  [
    'unitsConfig from + toBest false (quirk 7)',
    (d) => (at.uptime(d).unitsConfig = { from: 'ms', toBest: false }),
    VALID,
  ],
  [
    'unitsConfig from + to + toBest (quirk 7)',
    (d) => (at.uptime(d).unitsConfig = { from: 'ms', to: 's', toBest: true }),
    VALID,
  ],
  ['unitsConfig with only from', (d) => (at.uptime(d).unitsConfig = { from: 'ms' }), INVALID],
  [
    'unitsConfig from + to + toBest + exclude',
    (d) => (at.uptime(d).unitsConfig = { from: 'ms', to: 's', toBest: true, exclude: ['h'] }),
    INVALID,
  ],
  ['unitsConfig with to but no from', (d) => (at.uptime(d).unitsConfig = { to: 's' }), INVALID],
  [
    'unitsConfig with unknown unit names (quirk 7)',
    (d) => (at.uptime(d).unitsConfig = { from: 'watts', to: 'kilowatts' }),
    VALID,
  ],
  ['an unknown unitsConfig key', (d) => (objectAt(at.uptime(d), 'unitsConfig').cutOffNumber = 10), INVALID],
  [
    'a valueMap entry {key: 1, value: 2} (quirk 4)',
    (d) => (objectAt(at.admin(d), 'valueMapConfig').map = [{ key: 1, value: 2 }]),
    INVALID,
  ],
  ['a valueMap value 2.5', (d) => (objectAt(at.admin(d), 'valueMapConfig').map = [{ key: 1, value: 2.5 }]), VALID],
  [
    'a valueMap value "2" and a boolean value',
    (d) =>
      (objectAt(at.admin(d), 'valueMapConfig').map = [
        { key: 1, value: '2' },
        { key: 'x', value: true },
      ]),
    VALID,
  ],
  [
    'a valueMap entry without key or value, with an extra key',
    (d) => (objectAt(at.admin(d), 'valueMapConfig').map = [{ note: 'x' }]),
    VALID,
  ],
  [
    'a valueMap key that is null',
    (d) => (objectAt(at.admin(d), 'valueMapConfig').map = [{ key: null, value: 'x' }]),
    INVALID,
  ],
  ['an unknown valueMapConfig key', (d) => (objectAt(at.admin(d), 'valueMapConfig').default = 'x'), INVALID],
  ['a valueMapConfig without map', (d) => (at.admin(d).valueMapConfig = {}), INVALID],
];

const WIDGETS: Row[] = [
  ['an empty representation list', (d) => (d['representation'] = []), INVALID],
  ['a widget without commonConfig', (d) => delete at.widget(d, 0).commonConfig, INVALID],
  ['a widget without specificConfig', (d) => delete at.widget(d, 2).specificConfig, INVALID],
  ['firstColumn 9', (d) => (objectAt(at.widget(d, 0), 'commonConfig').firstColumn = 9), INVALID],
  ['widgetWidth 0', (d) => (objectAt(at.widget(d, 0), 'commonConfig').widgetWidth = 0), INVALID],
  [
    'firstRow 1 (the message text says greater than 1)',
    (d) => (objectAt(at.widget(d, 1), 'commonConfig').firstRow = 1),
    VALID,
  ],
  [
    'a "chart" widget (quirk 14 of the open questions)',
    (d) => (objectAt(at.widget(d, 0), 'commonConfig').widgetType = 'chart'),
    INVALID,
  ],
  ['an unknown widget commonConfig key', (d) => (objectAt(at.widget(d, 0), 'commonConfig').color = 'red'), VALID],
  ['data naming a table cell', (d) => (at.widget(d, 2).data = 'device[ports.0.ifIndex]'), VALID],
  ['data without device[...]', (d) => (at.widget(d, 2).data = 'ports.ifIndex'), INVALID],
  [
    'an unknown key in a map specificConfig',
    (d) => (objectAt(at.widget(d, 0), 'specificConfig').pageSize = 3),
    INVALID,
  ],
  [
    'an unknown key in a map format entry',
    (d) => (objectAt(at.widget(d, 0), 'specificConfig', 'format', 0).width = 3),
    INVALID,
  ],
  [
    'a map format entry without alias',
    (d) => delete objectAt(at.widget(d, 0), 'specificConfig', 'format', 0).alias,
    INVALID,
  ],
  ['a negative format order', (d) => (objectAt(at.widget(d, 0), 'specificConfig', 'format', 0).order = -1), INVALID],
  [
    'an unknown key in a table specificConfig (quirk 3)',
    (d) => (objectAt(at.widget(d, 1), 'specificConfig').sortBy = 'ifIndex'),
    VALID,
  ],
  ['a table pageSize of 11', (d) => (objectAt(at.widget(d, 1), 'specificConfig').pageSize = 11), INVALID],
  [
    'an unknown table fieldGroup',
    (d) => (objectAt(at.widget(d, 1), 'specificConfig', 'format', 0).fieldGroup = 'extra'),
    INVALID,
  ],
  [
    'an unknown key in a metric specificConfig',
    (d) => (objectAt(at.widget(d, 2), 'specificConfig').format = []),
    INVALID,
  ],
  [
    'an unknown key in a gauge specificConfig (quirk 3)',
    (d) => (objectAt(at.widget(d, 3), 'specificConfig').step = 5),
    VALID,
  ],
  ['a gauge with an empty format', (d) => (objectAt(at.widget(d, 3), 'specificConfig').format = []), INVALID],
  [
    'a gauge format entry with numeric units',
    (d) => (objectAt(at.widget(d, 3), 'specificConfig', 'format', 0).units = 5),
    INVALID,
  ],
  ['a gauge without maxValue', (d) => delete objectAt(at.widget(d, 3), 'specificConfig').maxValue, INVALID],
  [
    'an unknown key in a gauge range',
    (d) => (objectAt(at.widget(d, 3), 'specificConfig', 'ranges', 0).color = 'red'),
    INVALID,
  ],
  [
    'an unknown key in a gauge format entry',
    (d) => (objectAt(at.widget(d, 3), 'specificConfig', 'format', 0).label = 'CPU'),
    VALID,
  ],
  [
    'a map widget whose specificConfig is a gauge config',
    (d) => (at.widget(d, 0).specificConfig = at.widget(d, 3).specificConfig),
    INVALID,
  ],
  ['an unknown key on a widget (quirk 3)', (d) => (at.widget(d, 0).id = 'w1'), VALID],
];

export const COMPATIBILITY_TABLE: readonly (readonly [string, readonly Row[]])[] = [
  ['root', ROOT],
  ['versions', VERSIONS],
  ['originTypes', ORIGIN_TYPES],
  ['datapoint sets', SETS],
  ['datapoints', DATAPOINTS],
  ['addressConfig', ADDRESS],
  ['alertConfig', ALERTS],
  ['other datapoint blocks', BLOCKS],
  ['representation', WIDGETS],
];

/** Every row NetinDS rejects, as a finished document. */
export function invalidCases(): (readonly [string, Doc])[] {
  return COMPATIBILITY_TABLE.flatMap(([, rows]) =>
    rows.filter(([, , accepted]) => !accepted).map(([what, change]) => [what, mutated(change)] as const),
  );
}
