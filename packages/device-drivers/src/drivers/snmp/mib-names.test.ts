import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWithPrograms } from '../../test-support/real-server.js';
import { bundledMibDir, MibNames, mibNames, SYSTEM_MIB_DIRS } from './mib-names.js';
import { mibTokens, parseMibModules } from './mib-parser.js';

// Our own module (not a copy of any published one): SMIv2 and SMIv1 forms, a comment, a string with `::=`.
const TRIAD_TEST_MIB = `TRIAD-TEST-MIB DEFINITIONS ::= BEGIN
IMPORTS
    MODULE-IDENTITY, OBJECT-TYPE, NOTIFICATION-TYPE, enterprises, Integer32 FROM SNMPv2-SMI
    DisplayString FROM SNMPv2-TC;
triadTest MODULE-IDENTITY
    LAST-UPDATED "202612030000Z"
    ORGANIZATION "Triad -- not a comment"
    CONTACT-INFO "none"
    DESCRIPTION "A test module; ::= { enterprises 1 } inside a string is no assignment."
    ::= { enterprises 99999 }
triadObjects OBJECT IDENTIFIER ::= { triadTest 1 }
triadLevel OBJECT-TYPE -- the tank level
    SYNTAX Integer32 (0..100)
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "Level in percent."
    ::= { triadObjects 1 }
triadName OBJECT-TYPE
    SYNTAX DisplayString
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "Name."
    ::= { triadObjects 2 }
triadNotifications OBJECT IDENTIFIER ::= { triadTest 0 }
triadLevelHigh NOTIFICATION-TYPE
    OBJECTS { triadLevel }
    STATUS current
    DESCRIPTION "The level is high."
    ::= { triadNotifications 1 }
triadAbsolute OBJECT IDENTIFIER ::= { iso org(3) dod(6) 1 4 1 99999 7 }
ifDescr OBJECT IDENTIFIER ::= { triadObjects 9 }
END
`;

const dir = mkdtempSync(path.join(tmpdir(), 'triad-mibs-'));
writeFileSync(path.join(dir, 'TRIAD-TEST-MIB.txt'), TRIAD_TEST_MIB);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('MIB parser', () => {
  it('drops comments and strings from the tokens', () => {
    expect(mibTokens('a -- comment -- b "x ::= y" c ::= { d 1 }')).toEqual(['a', 'b', 'c', '::=', '{', 'd', '1', '}']);
  });

  it('reads imports and assignments of a module', () => {
    const [module] = parseMibModules(TRIAD_TEST_MIB);
    expect(module?.name).toBe('TRIAD-TEST-MIB');
    expect(module?.imports.get('enterprises')).toBe('SNMPv2-SMI');
    expect(module?.assignments.get('triadTest')).toEqual({ parent: 'enterprises', subIds: [99999] });
    expect(module?.assignments.get('triadAbsolute')).toEqual({ parent: 'iso', subIds: [3, 6, 1, 4, 1, 99999, 7] });
    expect(module?.assignments.has('Integer32')).toBe(false);
  });
});

describe('MIB names', () => {
  const names = mibNames([dir]);

  it('resolves qualified, unqualified and instance names of the bundled IETF modules', () => {
    expect(names.resolve('IF-MIB::ifDescr').oid).toBe('1.3.6.1.2.1.2.2.1.2');
    expect(names.resolve('IF-MIB::ifDescr.1').oid).toBe('1.3.6.1.2.1.2.2.1.2.1');
    expect(names.resolve('SNMPv2-MIB::sysUpTime.0').oid).toBe('1.3.6.1.2.1.1.3.0');
    expect(names.resolve('sysUpTime.0').oid).toBe('1.3.6.1.2.1.1.3.0');
    expect(names.resolve('.1.3.6.1.2.1.1.5.0').oid).toBe('1.3.6.1.2.1.1.5.0');
  });

  it('resolves names from TRIAD_MIB_DIRS through the SMI modules they import', () => {
    expect(names.resolve('TRIAD-TEST-MIB::triadLevel.0').oid).toBe('1.3.6.1.4.1.99999.1.1.0');
    expect(names.resolve('triadLevelHigh').oid).toBe('1.3.6.1.4.1.99999.0.1');
    expect(names.resolve('triadAbsolute').oid).toBe('1.3.6.1.4.1.99999.7');
  });

  it('asks for the module when an unqualified name has several OIDs', () => {
    expect(names.resolve('ifDescr').message).toMatch(/ifDescr names several OIDs .*write it with its module/);
    expect(mibNames().resolve('ifDescr').oid).toBe('1.3.6.1.2.1.2.2.1.2');
  });

  it('says which module or name is missing and where it looked', () => {
    const module = names.resolve('HOST-RESOURCES-MIB::hrStorageTable').message;
    expect(module).toContain('the MIB module HOST-RESOURCES-MIB is not among the modules read');
    expect(module).toContain(`TRIAD_MIB_DIRS (read: ${dir}:`);
    expect(names.resolve('IF-MIB::ifDescrption').message).toContain('the MIB module IF-MIB defines no ifDescrption');
    expect(names.resolve('noSuchThing').message).toContain('no MIB module read defines noSuchThing');
    expect(names.resolve('1.3..6').message).toContain('is neither an OID');
  });

  it('reads the directories once per list', () => {
    expect(mibNames([dir])).toBe(names);
    expect(names.directories).toEqual([dir, ...SYSTEM_MIB_DIRS, bundledMibDir()]);
  });

  it('skips files over the size limit and says so', () => {
    const limited = new MibNames([dir], { filesPerDirectory: 10, bytesPerFile: 100, bytesInAll: 1000 });
    expect(limited.modules).toEqual([]);
    expect(limited.skipped[0]).toMatch(/TRIAD-TEST-MIB\.txt: \d+ bytes, over the limit/);
  });
});

describeWithPrograms('MIB names against snmptranslate', ['snmptranslate'], 'apt-get install snmp', () => {
  it('gives the OIDs snmptranslate -On gives', () => {
    const list = [
      'IF-MIB::ifDescr',
      'IF-MIB::ifHCInOctets.1',
      'IF-MIB::linkDown',
      'SNMPv2-MIB::sysUpTime.0',
      'SNMPv2-MIB::coldStart',
      'UCD-SNMP-MIB::memTotalReal.0',
      'NET-SNMP-EXTEND-MIB::nsExtendOutput1Line',
      'TRIAD-TEST-MIB::triadLevel.0',
    ];
    const run = spawnSync('snmptranslate', ['-M', `+:${bundledMibDir()}:${dir}`, '-m', 'ALL', '-On', ...list], {
      encoding: 'utf8',
    });
    const expected = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('.'))
      .map((line) => line.slice(1));
    expect(expected).toHaveLength(list.length);
    expect(list.map((name) => mibNames([dir]).resolve(name).oid)).toEqual(expected);
  });
});
