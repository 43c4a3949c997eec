import { describe, expect, it } from 'vitest';
import { atom, binary, tuple, type Term } from '@triad/erlang-dist';
import { nmError } from '../errors.js';
import type { FamilyRecord } from '../model/family-record.js';
import type { NodeRecord } from '../model/node-record.js';
import { SelfRegistration } from './self-registration.js';

const CALLER = 'n1@127.0.0.1';
const call = (node: string, cookie: Term = atom('c')) => tuple(atom('auto_discover_node'), atom(node), cookie);
const ok = atom('ok');
const err = (reason: string) => tuple(atom('error'), atom(reason));

/** An in-memory topology with the add-node command's refusals. */
function world(options: { family?: string; perMinute?: number; clock?: { t: number } } = {}) {
  const nodes = new Map<string, NodeRecord>();
  const families = new Map<string, FamilyRecord>();
  const added: { name: string; cookie: string; familyId: string | undefined }[] = [];
  const registration = new SelfRegistration({
    family: options.family ?? '',
    perMinute: options.perMinute ?? 100,
    now: () => options.clock?.t ?? 0,
    store: {
      findLiveNodeByName: (name) => Promise.resolve(nodes.get(name)),
      findLiveFamilyByName: (name) => Promise.resolve([...families.values()].find((f) => f.name === name)),
    },
    topology: {
      addNode: (name, cookie, opts = {}) => {
        if (nodes.has(name)) return Promise.reject(nmError('NM_ERR_NODE_EXISTS'));
        added.push({ name, cookie, familyId: opts.familyId });
        const node = { id: `id-${name}`, name, familyId: opts.familyId ?? 'release' } as NodeRecord;
        nodes.set(name, node);
        return Promise.resolve(node);
      },
      reserveOwnName: () => undefined,
      createFamily: (input) => {
        const family = { id: `fam-${families.size}`, name: input.name } as FamilyRecord;
        families.set(family.id, family);
        return Promise.resolve(family);
      },
    },
  });
  return { registration, added, families, nodes };
}

describe('SelfRegistration', () => {
  it('adds the calling node with its cookie and replies ok, and ok again without a second add', async () => {
    const w = world();
    expect(await w.registration.handle(call(CALLER, atom('secret')), CALLER)).toEqual(ok);
    expect(await w.registration.handle(call(CALLER, atom('secret')), CALLER)).toEqual(ok);
    expect(w.added).toEqual([{ name: CALLER, cookie: 'secret', familyId: undefined }]);
  });

  it('puts nodes into the configured family, creating it once', async () => {
    const w = world({ family: 'Autoscaled' });
    await w.registration.handle(call('a@h'), 'a@h');
    await w.registration.handle(call('b@h', binary('c2')), 'b@h');
    expect(w.families.size).toBe(1);
    expect(w.added.map((a) => [a.familyId, a.cookie])).toEqual([
      ['fam-0', 'c'],
      ['fam-0', 'c2'],
    ]);
  });

  it('creates the configured family once when nodes register at the same moment', async () => {
    const w = world({ family: 'Autoscaled' });
    const names = ['a@h', 'b@h', 'c@h'];
    expect(await Promise.all(names.map((n) => w.registration.handle(call(n), n)))).toEqual([ok, ok, ok]);
    expect(w.families.size).toBe(1);
    expect(new Set(w.added.map((a) => a.familyId))).toEqual(new Set(['fam-0']));
    // Once created, later registrations find it.
    await w.registration.handle(call('d@h'), 'd@h');
    expect(w.families.size).toBe(1);
  });

  it('answers refusals as {error, Reason} and adds nothing', async () => {
    const w = world();
    expect(await w.registration.handle(atom('hello'), CALLER)).toEqual(err('unknown_request'));
    expect(await w.registration.handle(tuple(atom('auto_discover_node'), atom(CALLER)), CALLER)).toEqual(
      err('unknown_request'),
    );
    expect(await w.registration.handle(call('no-host'), CALLER)).toEqual(err('bad_node_name'));
    const long = `${'a'.repeat(251)}@host`;
    expect(await w.registration.handle(call(long), long)).toEqual(err('bad_node_name'));
    expect(await w.registration.handle(call(CALLER, tuple()), CALLER)).toEqual(err('bad_cookie'));
    expect(await w.registration.handle(call('other@h'), CALLER)).toEqual(err('not_the_caller'));
    expect(w.added).toEqual([]);
  });

  it('adds at most perMinute nodes in a minute, busy beyond, and again a minute later', async () => {
    const clock = { t: 0 };
    const w = world({ perMinute: 2, clock });
    expect(await w.registration.handle(call('a@h'), 'a@h')).toEqual(ok);
    expect(await w.registration.handle(call('b@h'), 'b@h')).toEqual(ok);
    expect(await w.registration.handle(call('c@h'), 'c@h')).toEqual(err('busy'));
    // A managed node is no new registration: still ok.
    expect(await w.registration.handle(call('a@h'), 'a@h')).toEqual(ok);
    clock.t = 60_000;
    expect(await w.registration.handle(call('c@h'), 'c@h')).toEqual(ok);
    expect(w.added.map((a) => a.name)).toEqual(['a@h', 'b@h', 'c@h']);
  });
});
