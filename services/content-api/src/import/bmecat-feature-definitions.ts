import { normalizeGroupId, normalizeSystemName } from '../model/classification-system.js';

/** A name in each language the catalog gives it: BMEcat `lang` as written (`''` without one), first per language. */
export type DefinedNames = Readonly<Record<string, string>>;

/**
 * What a catalog defines before its items (BMEcat `CLASSIFICATION_SYSTEM` and 1.2's
 * `FEATURE_SYSTEM` in `T_NEW_CATALOG`), for the items to refer to: feature templates by `FT_ID`
 * (name, unit), allowed values by `ALLOWED_VALUE_ID`, and the groups of each system by id (their
 * names) and by name (their id). Plain maps, so it crosses to the threads reading items.
 */
export interface FeatureDefinitions {
  readonly features: Map<string, { readonly names: DefinedNames; readonly unit?: string }>;
  readonly values: Map<string, DefinedNames>;
  /** Key: `groupKey(system, id)`. */
  readonly groups: Map<string, DefinedNames>;
  /** Key: `groupKey(system, name)` for every name of a group; value: the group's id. */
  readonly groupIds: Map<string, string>;
}

/** The key of a group of a system (its normalised name) in `FeatureDefinitions.groups` / `groupIds`. */
export function groupKey(system: string, idOrName: string): string {
  return `${system}\n${idOrName}`;
}

/** Definitions kept per file at most (templates, values and groups together); later ones are not kept. */
export const DEFINITIONS_LIMIT = 500_000;

/** The name in `lang` (BMEcat code as written, or one whose API language `sameLanguage` accepts), else the first. */
export function pickName(names: DefinedNames, sameLanguage: (bmecatLang: string) => boolean): string | undefined {
  let first: string | undefined;
  for (const key in names) {
    if (sameLanguage(key)) return names[key];
    first ??= names[key];
  }
  return first;
}

/**
 * Collects `FeatureDefinitions` from the elements around the items: `ItemBuilder` calls `open`
 * and `close` for each element outside an item. Elements are recognised by name, wherever
 * they sit: `CLASSIFICATION_SYSTEM_NAME` / `FEATURE_SYSTEM_NAME` start a system, then
 * `CLASSIFICATION_GROUP` / `FEATURE_GROUP` (id and names), `FEATURE_TEMPLATE` (`FT_ID`,
 * `FT_NAME`, `FT_UNIT`) and `ALLOWED_VALUE` (`ALLOWED_VALUE_ID`, `ALLOWED_VALUE_NAME`).
 */
export class FeatureDefinitionCollector {
  readonly definitions: FeatureDefinitions;
  #count = 0;
  #system = '';
  #lang = '';
  // One entry per kind: 1.2 nests feature templates inside a group.
  #group: Entry = newEntry();
  #template: Entry = newEntry();
  #value: Entry = newEntry();

  constructor(definitions?: FeatureDefinitions) {
    this.definitions = definitions ?? {
      features: new Map(),
      values: new Map(),
      groups: new Map(),
      groupIds: new Map(),
    };
  }

  /** Whether any definition was read. */
  get empty(): boolean {
    const d = this.definitions;
    return d.features.size === 0 && d.values.size === 0 && d.groups.size === 0;
  }

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    switch (name) {
      case 'CLASSIFICATION_GROUP':
      case 'FEATURE_GROUP':
        this.#group = newEntry();
        break;
      case 'FEATURE_TEMPLATE':
        this.#template = newEntry();
        break;
      case 'ALLOWED_VALUE':
        this.#value = newEntry();
        break;
      case 'CLASSIFICATION_GROUP_NAME':
      case 'FEATURE_GROUP_NAME':
      case 'FT_NAME':
      case 'ALLOWED_VALUE_NAME':
        this.#lang = attributes.lang?.trim() ?? '';
        break;
    }
  }

  /** `text`: the element's own text (for the leaves read here). */
  close(name: string, text: string): void {
    const value = text.trim();
    switch (name) {
      case 'CLASSIFICATION_SYSTEM_NAME':
      case 'FEATURE_SYSTEM_NAME':
        this.#system = normalizeSystemName(value);
        break;
      case 'CLASSIFICATION_GROUP_ID':
      case 'FEATURE_GROUP_ID':
        this.#group.id = normalizeGroupId(value);
        break;
      case 'FT_ID':
        this.#template.id = value;
        break;
      case 'ALLOWED_VALUE_ID':
        this.#value.id = value;
        break;
      case 'FT_UNIT':
        if (value !== '') this.#template.unit = value;
        break;
      case 'CLASSIFICATION_GROUP_NAME':
      case 'FEATURE_GROUP_NAME':
        if (value !== '') this.#group.names[this.#lang] ??= value;
        break;
      case 'FT_NAME':
        if (value !== '') this.#template.names[this.#lang] ??= value;
        break;
      case 'ALLOWED_VALUE_NAME':
        if (value !== '') this.#value.names[this.#lang] ??= value;
        break;
      case 'CLASSIFICATION_GROUP':
      case 'FEATURE_GROUP': {
        const { id, names } = this.#group;
        if (id === undefined || !this.#room()) break;
        this.definitions.groups.set(groupKey(this.#system, id), names);
        for (const key in names) {
          const groupName = names[key];
          if (groupName !== undefined) this.definitions.groupIds.set(groupKey(this.#system, groupName), id);
        }
        break;
      }
      case 'FEATURE_TEMPLATE': {
        const { id, names, unit } = this.#template;
        if (id === undefined || !this.#room()) break;
        this.definitions.features.set(id, unit === undefined ? { names } : { names, unit });
        break;
      }
      case 'ALLOWED_VALUE': {
        const { id, names } = this.#value;
        if (id === undefined || !this.#room()) break;
        this.definitions.values.set(id, names);
        break;
      }
    }
  }

  #room(): boolean {
    this.#count += 1;
    return this.#count <= DEFINITIONS_LIMIT;
  }
}

interface Entry {
  id: string | undefined;
  names: Record<string, string>;
  unit: string | undefined;
}

function newEntry(): Entry {
  return { id: undefined, names: {}, unit: undefined };
}
