import { describe, expect, it } from 'vitest';
import { articlePath, LinkBuilder } from './links.js';

describe('LinkBuilder.articleLink', () => {
  const versions = { versionOf: (ids: readonly string[]) => (ids.length === 0 ? 'all v1' : `v-${ids.join('+')}&~`) };
  const IDS = ['', ':x', 'shop-1:A-1', 'a:b:c', 'shop 1:ä/ö?#', '%41:%2F', 'ﬁ😀:1', 'no-colon', '::'];

  it.each(['http://127.0.0.1:8081/', 'https://h.example/base path'])(
    'links as link(rel, articlePath(id)) does (%s)',
    (base) => {
      for (const versionsOrOne of [versions, 'one', undefined, '']) {
        const fast = new LinkBuilder(base, versionsOrOne);
        const slow = new LinkBuilder(base, versionsOrOne);
        // Twice: the second time from what the builder kept.
        for (const id of [...IDS, ...IDS])
          expect(fast.articleLink('details', id)).toEqual(slow.link('details', articlePath(id)));
        expect(fast.articleLink('self', 'a:b').rel).toBe('self');
      }
    },
  );

  it('asks for each shop version once per builder', () => {
    const asked: string[][] = [];
    const links = new LinkBuilder('http://h', { versionOf: (ids) => (asked.push([...ids]), `v${ids.length}`) });
    for (const id of ['s1:a', 's1:b', 's2:a', 's1:c']) links.articleLink('details', id);
    expect(asked).toEqual([['s1'], ['s2']]);
  });
});
