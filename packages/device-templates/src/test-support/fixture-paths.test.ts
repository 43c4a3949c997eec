import { describe, expect, it } from 'vitest';
import { listAt, objectAt } from './fixture-paths.js';

const fixture = () => ({ sets: [{ id: 'a', points: [{ id: 'p' }] }], name: 'x' });

describe('objectAt and listAt', () => {
  it('return the very object or list at the path, so edits change the fixture', () => {
    const t = fixture();
    objectAt(t, 'sets', 0, 'points', 0).id = 'q';
    listAt(t, 'sets').push({ id: 'b', points: [] });
    expect(t.sets[0]?.points[0]?.id).toBe('q');
    expect(t.sets.map((s) => s.id)).toEqual(['a', 'b']);
    expect(objectAt(t)).toBe(t);
  });

  it('name the first missing step', () => {
    expect(() => objectAt(fixture(), 'sets', 3, 'points')).toThrow('fixture has nothing at .sets[3]');
    expect(() => listAt(fixture(), 'sets', 0, 'id', 'x')).toThrow('fixture has nothing at .sets[0].id.x');
  });

  it('refuse a target of the wrong kind', () => {
    expect(() => objectAt(fixture(), 'sets')).toThrow('fixture value at .sets is not an object');
    expect(() => listAt(fixture(), 'name')).toThrow('fixture value at .name is not a list');
  });
});
