import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../demo/generate-catalog.js';
import type { ArticleClassification } from '../model/article.js';
import { articleIndexFields } from './article-index-fields.js';

const [article] = generateCatalog({ articles: 1, seed: 5 }).articles();

function groups(classifications: ArticleClassification[]) {
  if (!article) throw new Error('no generated article');
  const { unspsc7, unspsc9 } = articleIndexFields({ ...article, classifications });
  return { unspsc7, unspsc9 };
}

describe('articleIndexFields', () => {
  it('counts a UNSPSC classification in the facet of its major version, the first of each', () => {
    expect(
      groups([
        { systemName: 'ECLASS-9.0', groupId: '27141141', features: [] },
        { systemName: 'UNSPSC-7.0401', groupId: '39121702', features: [] },
        { systemName: 'UNSPSC-9', groupId: '39121703', features: [] },
        { systemName: 'UNSPSC-7', groupId: '11111111', features: [] },
      ]),
    ).toEqual({ unspsc7: '39121702', unspsc9: '39121703' });
  });

  it('leaves UNSPSC without a version, other versions and other systems out of both facets', () => {
    expect(
      groups([
        { systemName: 'UNSPSC', groupId: '39121702', features: [] },
        { systemName: 'UNSPSC-17.01', groupId: '39121702', features: [] },
        { systemName: 'udf_UNSPSC-7', groupId: '1', features: [] },
      ]),
    ).toEqual({ unspsc7: undefined, unspsc9: undefined });
  });
});
