import { describe, expect, it } from 'vitest';
import { highlightText, MAX_HIGHLIGHT_SPANS, MAX_HIGHLIGHT_TEXT, SNIPPET_LENGTH } from './highlight.js';

const matched = (words: string[], prefixes: string[] = []) => ({ words: new Set(words), prefixes });
const marked = (text: string, spans: readonly (readonly [number, number])[]) => spans.map(([a, b]) => text.slice(a, b));

describe('highlightText', () => {
  it('marks every word of the text among the matched words, compared as searchWords gives them', () => {
    const text = 'Akkubohrer 18 V mit zwei Akkus, Bohrer-Set';
    const found = highlightText(text, matched(['akkubohrer', 'bohrer']))!;
    expect(marked(text, found.spans)).toEqual(['Akkubohrer', 'Bohrer']);
    expect(found.snippet).toBe('<mark>Akkubohrer</mark> 18 V mit zwei Akkus, <mark>Bohrer</mark>-Set');
  });

  it('gives UTF-16 offsets into the whole text, past umlauts and characters beyond the BMP', () => {
    const text = '𝄞 Kühlschrank weiß — Größe 2';
    const found = highlightText(text, matched(['kuhlschrank', 'weiß', 'große']))!;
    expect(found.spans).toEqual([
      [3, 14],
      [15, 19],
      [22, 27],
    ]);
    expect(marked(text, found.spans)).toEqual(['Kühlschrank', 'weiß', 'Größe']);
  });

  it('marks words starting with a matched prefix (words with digits matched by prefix)', () => {
    const text = 'Kugellager 6204 2RS';
    expect(marked(text, highlightText(text, matched([], ['620']))!.spans)).toEqual(['6204']);
  });

  it('answers undefined when no word matched', () => {
    expect(highlightText('Hammer 500 g', matched(['bohrer']))).toBeUndefined();
    expect(highlightText('', matched(['bohrer']))).toBeUndefined();
  });

  it('escapes the text of the snippet, the marks being its only markup', () => {
    const found = highlightText(`<b>Bohrer</b> & "Dübel" 'x'`, matched(['bohrer']))!;
    expect(found.snippet).toBe('&lt;b&gt;<mark>Bohrer</mark>&lt;/b&gt; &amp; &quot;Dübel&quot; &#39;x&#39;');
  });

  it('cuts a long text around the first match at word boundaries, with … where cut', () => {
    const words = Array.from({ length: 80 }, (_, i) => `wort${i}`);
    words[50] = 'Steinbohrer';
    const text = words.join(' ');
    const found = highlightText(text, matched(['steinbohrer']))!;
    expect(found.snippet.startsWith('…')).toBe(true);
    expect(found.snippet.endsWith('…')).toBe(true);
    const plain = found.snippet.replace(/<\/?mark>/g, '').slice(1, -1);
    expect(plain.length).toBeLessThanOrEqual(SNIPPET_LENGTH);
    expect(text.includes(plain)).toBe(true);
    expect(plain.startsWith('wort')).toBe(true);
    expect(found.snippet).toContain('<mark>Steinbohrer</mark>');
    expect(found.snippet.indexOf('<mark>')).toBeGreaterThan(20);
  });

  it('caps the spans and the length of text looked at', () => {
    const many = Array.from({ length: 200 }, () => 'bohrer').join(' ');
    expect(highlightText(many, matched(['bohrer']))!.spans).toHaveLength(MAX_HIGHLIGHT_SPANS);
    const late = `${'x'.repeat(MAX_HIGHLIGHT_TEXT)} bohrer`;
    expect(highlightText(late, matched(['bohrer']))).toBeUndefined();
  });
});
