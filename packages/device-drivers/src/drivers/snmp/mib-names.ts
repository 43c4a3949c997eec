/**
 * MIB names for OIDs: `IF-MIB::ifDescr`, `IF-MIB::ifDescr.1`, `ifDescr.1`, `SNMPv2-MIB::sysUpTime.0`
 * resolve to dotted decimal OIDs from the MIB modules in a list of directories. The modules are
 * read once per list of directories and kept (`mibNames`); the reading is bounded (files per
 * directory, bytes per file and in all). See docs/devices.md, "MIB names", and decision 0049.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { normalizeOid } from './oid.js';
import { parseMibModules, type MibAssignment, type MibModule } from './mib-parser.js';

/** Where an operating system keeps MIB modules (Debian's libsnmp-base, snmp-mibs-downloader, Net-SNMP). */
export const SYSTEM_MIB_DIRS: readonly string[] = Object.freeze([
  '/usr/share/snmp/mibs',
  '/usr/share/snmp/mibs/iana',
  '/usr/share/snmp/mibs/ietf',
  '/var/lib/mibs/ietf',
  '/var/lib/mibs/iana',
]);

/** The IETF modules net-snmp (the npm module) ships: SNMPv2-MIB, IF-MIB, RFC1213-MIB and their imports. */
export function bundledMibDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('net-snmp')), 'lib', 'mibs');
}

/** Bounds on reading MIB directories. */
export interface MibLimits {
  readonly filesPerDirectory: number;
  readonly bytesPerFile: number;
  readonly bytesInAll: number;
}

export const MIB_LIMITS: MibLimits = Object.freeze({
  filesPerDirectory: 2000,
  bytesPerFile: 2 * 1024 * 1024, // 2 MiB
  bytesInAll: 64 * 1024 * 1024, // 64 MiB
});

/** A name resolved (`oid`) or not (`message` says why and where Triad looked). */
export type MibResolution =
  { readonly oid: string; readonly message?: undefined } | { readonly oid?: undefined; readonly message: string };

const ROOTS: Readonly<Record<string, string>> = { ccitt: '0', iso: '1', 'joint-iso-ccitt': '2' };
const NAME = /^(?:([A-Za-z][A-Za-z0-9_-]*)::)?([a-z][A-Za-z0-9_-]*)((?:\.\d+)*)$/;

export class MibNames {
  readonly #modules = new Map<string, MibModule>();
  readonly #oids = new Map<string, string | null>();
  /** Unqualified name → the OIDs of that name in every module (usually one). */
  #byName: Map<string, Set<string>> | undefined;
  /** OID → `MODULE::name`, the first module read that assigns it. */
  #byOid: Map<string, string> | undefined;
  /** The directories read, in order. */
  readonly directories: readonly string[];
  /** Files left unread and why (too large, over the limits, not readable). */
  readonly skipped: readonly string[];

  /** Modules from the first directory that has one of a name win (TRIAD_MIB_DIRS before the system's). */
  constructor(directories: readonly string[], limits: MibLimits = MIB_LIMITS) {
    this.directories = Object.freeze([...directories]);
    const skipped: string[] = [];
    let total = 0;
    for (const directory of directories) {
      let names: string[];
      try {
        names = readdirSync(directory).sort();
      } catch {
        continue; // a directory that does not exist holds no modules
      }
      if (names.length > limits.filesPerDirectory) {
        skipped.push(`${directory}: only the first ${limits.filesPerDirectory} of ${names.length} files read`);
        names = names.slice(0, limits.filesPerDirectory);
      }
      for (const name of names) {
        if (name.startsWith('.')) continue;
        const file = join(directory, name);
        try {
          const stat = statSync(file);
          if (!stat.isFile()) continue;
          if (stat.size > limits.bytesPerFile || total + stat.size > limits.bytesInAll) {
            skipped.push(`${file}: ${stat.size} bytes, over the limit`);
            continue;
          }
          total += stat.size;
          for (const module of parseMibModules(readFileSync(file, 'latin1')))
            if (!this.#modules.has(module.name)) this.#modules.set(module.name, module);
        } catch {
          skipped.push(`${file}: not readable`);
        }
      }
    }
    this.skipped = Object.freeze(skipped);
  }

  /** The module names read, sorted. */
  get modules(): string[] {
    return [...this.#modules.keys()].sort();
  }

  /**
   * Resolves `text`: a dotted decimal OID as it is (without a leading dot), else a name,
   * `MODULE::name` or `name`, with an optional instance suffix (`.0`, `.1.4`). An unqualified name
   * must be defined by one OID across the modules read; otherwise the message asks for the module.
   */
  resolve(text: string): MibResolution {
    const numeric = normalizeOid(text);
    if (numeric !== undefined) return { oid: numeric };
    const match = NAME.exec(text.trim());
    if (match === null)
      return {
        message:
          `'${text}' is neither an OID (1.3.6.1.2.1.1.3.0) nor a MIB name ` +
          `(SNMPv2-MIB::sysUpTime.0, IF-MIB::ifDescr, ifDescr.1)`,
      };
    const [, moduleName, name = '', suffix = ''] = match;
    if (moduleName !== undefined) {
      if (!this.#modules.has(moduleName))
        return {
          message:
            `the MIB module ${moduleName} is not among the modules read; put its file into a directory ` +
            `of TRIAD_MIB_DIRS (read: ${this.#where()})`,
        };
      const oid = this.#resolve(moduleName, name, 0);
      if (oid === undefined)
        return {
          message:
            `the MIB module ${moduleName} defines no ${name}; check the spelling (names are case-sensitive), ` +
            `or put the modules it imports into a directory of TRIAD_MIB_DIRS (read: ${this.#where()})`,
        };
      return { oid: oid + suffix };
    }
    const oids = this.#index().get(name);
    if (oids === undefined || oids.size === 0)
      return {
        message:
          `no MIB module read defines ${name}; check the spelling, or put the module's file into a ` +
          `directory of TRIAD_MIB_DIRS (read: ${this.#where()})`,
      };
    if (oids.size > 1)
      return {
        message: `${name} names several OIDs (${[...oids].join(', ')}); write it with its module, MODULE::${name}`,
      };
    return { oid: [...oids][0] + suffix };
  }

  /**
   * The name of `oid` (dotted decimal), `MODULE::name` with the rest as instance (`IF-MIB::ifDescr.3`):
   * the longest prefix that a module read assigns (the first module read when several do), or
   * undefined when none does below the top three arcs.
   */
  nameOf(oid: string): string | undefined {
    const names = this.#names();
    const arcs = oid.split('.');
    for (let length = arcs.length; length > 3; length--) {
      const name = names.get(arcs.slice(0, length).join('.'));
      if (name !== undefined) return length === arcs.length ? name : `${name}.${arcs.slice(length).join('.')}`;
    }
    return undefined;
  }

  #names(): Map<string, string> {
    if (this.#byOid !== undefined) return this.#byOid;
    const names = new Map<string, string>();
    for (const module of this.#modules.values())
      for (const name of module.assignments.keys()) {
        const oid = this.#resolve(module.name, name, 0);
        if (oid !== undefined && !names.has(oid)) names.set(oid, `${module.name}::${name}`);
      }
    this.#byOid = names;
    return names;
  }

  #where(): string {
    return this.directories.join(':') || 'no directories';
  }

  #index(): Map<string, Set<string>> {
    if (this.#byName !== undefined) return this.#byName;
    const index = new Map<string, Set<string>>();
    for (const module of this.#modules.values())
      for (const name of module.assignments.keys()) {
        const oid = this.#resolve(module.name, name, 0);
        if (oid === undefined) continue;
        let oids = index.get(name);
        if (oids === undefined) index.set(name, (oids = new Set()));
        oids.add(oid);
      }
    this.#byName = index;
    return index;
  }

  /** The OID of `name` as `moduleName` sees it: its own assignment, an import, or (for SMI roots) any module's. */
  #resolve(moduleName: string, name: string, depth: number): string | undefined {
    const root = ROOTS[name];
    if (root !== undefined) return root;
    if (depth > 64) return undefined;
    const key = `${moduleName}::${name}`;
    const known = this.#oids.get(key);
    if (known !== undefined) return known ?? undefined;
    this.#oids.set(key, null); // a cycle resolves to nothing
    const module = this.#modules.get(moduleName);
    let oid: string | undefined;
    const assignment = module?.assignments.get(name);
    if (assignment !== undefined) oid = this.#assigned(moduleName, assignment, depth);
    else {
      const from = module?.imports.get(name);
      if (from !== undefined && this.#modules.has(from)) oid = this.#resolve(from, name, depth + 1);
      else
        for (const other of this.#modules.values())
          if (other.name !== moduleName && other.assignments.has(name)) {
            oid = this.#resolve(other.name, name, depth + 1);
            if (oid !== undefined) break;
          }
    }
    this.#oids.set(key, oid ?? null);
    return oid;
  }

  #assigned(moduleName: string, assignment: MibAssignment, depth: number): string | undefined {
    const tail = assignment.subIds.join('.');
    if (assignment.parent === undefined) return tail;
    const parent = this.#resolve(moduleName, assignment.parent, depth + 1);
    if (parent === undefined) return undefined;
    return tail === '' ? parent : `${parent}.${tail}`;
  }
}

const cache = new Map<string, MibNames>();

/**
 * The MIB names of `extraDirectories` (TRIAD_MIB_DIRS, read first), the system's directories and
 * net-snmp's bundled modules, read on first use and kept for the process.
 */
export function mibNames(extraDirectories: readonly string[] = []): MibNames {
  const directories = [...extraDirectories, ...SYSTEM_MIB_DIRS, bundledMibDir()];
  const key = directories.join('\0');
  let names = cache.get(key);
  if (names === undefined) cache.set(key, (names = new MibNames(directories)));
  return names;
}
