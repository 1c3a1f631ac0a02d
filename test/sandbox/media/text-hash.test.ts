import { describe, expect, it } from 'vitest';
import { hashText } from '../../../src/sandbox/media/index.ts';

describe('hashText', () => {
  it('is 32-bit FNV-1a over UTF-8', () => {
    expect(hashText('')).toBe(0x811c9dc5);
    expect(hashText('a')).toBe(0xe40c292c);
    expect(hashText('foobar')).toBe(0xbf9cf968);
    expect(hashText('é')).not.toBe(hashText('e'));
  });

  it('spreads similar texts apart', () => {
    const hashes = new Set(Array.from({ length: 1000 }, (_, i) => hashText(`prompt ${i}`)));
    expect(hashes.size).toBe(1000);
    for (const h of hashes) expect(h >>> 0).toBe(h);
  });
});
