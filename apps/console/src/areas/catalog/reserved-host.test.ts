import { describe, expect, it } from 'vitest';
import { isReservedHost } from './reserved-host.js';

describe('isReservedHost', () => {
  it.each([
    'https://images.example.com/labtools/LAB-0000001.jpg',
    'https://example.org/a.png',
    'https://media.werkbank.example/bilder/wb-4410.jpg',
    'http://cdn.shop.test/x.jpg',
    'http://x.invalid/y',
    'http://[',
  ])('counts %s as reserved', (href) => {
    expect(isReservedHost(href)).toBe(true);
  });

  it.each(['https://cdn.supplier.de/a.jpg', 'https://myexample.com/a.jpg', '/demo/a.svg'])('lets %s load', (href) => {
    expect(isReservedHost(href)).toBe(false);
  });
});
