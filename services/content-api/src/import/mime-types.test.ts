import { describe, expect, it } from 'vitest';
import { mimeTypeOf } from './mime-types.js';

describe('mimeTypeOf', () => {
  it('takes the media type from the extension, in any case, before a query or fragment', () => {
    expect(mimeTypeOf('https://m.example/a/b.JPG')).toBe('image/jpeg');
    expect(mimeTypeOf('sheet.pdf?v=2')).toBe('application/pdf');
    expect(mimeTypeOf('clip.mp4#t=3')).toBe('video/mp4');
  });

  it('falls back to application/octet-stream', () => {
    expect(mimeTypeOf('archive.xyz')).toBe('application/octet-stream');
    expect(mimeTypeOf('no-extension')).toBe('application/octet-stream');
  });
});
