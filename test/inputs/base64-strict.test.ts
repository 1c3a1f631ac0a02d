import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Base64DecodeError, decodeBase64Strict, parseDataUri } from '../../src/core/inputs/index.ts';

describe('decodeBase64Strict', () => {
  it('round-trips any bytes, padded or not, line-wrapped or not', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 80 }),
        (bytes, pad, wrap) => {
          let text = Buffer.from(bytes).toString('base64');
          if (!pad) text = text.replace(/=+$/, '');
          const wrapped = text.replace(new RegExp(`(.{${wrap}})`, 'g'), '$1\r\n');
          expect(Buffer.from(decodeBase64Strict(text))).toEqual(Buffer.from(bytes));
          expect(Buffer.from(decodeBase64Strict(wrapped))).toEqual(Buffer.from(bytes));
        },
      ),
    );
  });

  it.each([
    ['iVBO%w0K', 'invalid Base64: unexpected character "%" at position 4'],
    ['iVBO-w0K', 'invalid Base64: unexpected character "-" at position 4'],
    ['iVBO_w0K', 'invalid Base64: unexpected character "_" at position 4'],
    ['aGVsbG8\u00e9', 'invalid Base64: unexpected character "é" at position 7'],
    ['aGVs\u0000bG8=', 'invalid Base64: unexpected character "\\u0000" at position 4'],
    ['aGVsbG8=aGVs', 'invalid Base64: data after the "=" padding, at position 8'],
    ['aG===', 'invalid Base64: too much "=" padding at position 4'],
    ['aGVsb=', 'invalid Base64: the "=" padding does not fit the length'],
    ['aGVsb', 'invalid Base64: truncated (one character too many or too few)'],
  ])('refuses %j', (text, message) => {
    expect(() => decodeBase64Strict(text)).toThrow(Base64DecodeError);
    expect(() => decodeBase64Strict(text)).toThrow(message);
  });

  it('decodes the empty string to no bytes', () => {
    expect(decodeBase64Strict('').length).toBe(0);
  });
});

describe('parseDataUri', () => {
  it('splits the media type from the payload', () => {
    expect(parseDataUri('data:image/PNG;base64,iVBORw0K')).toEqual({
      mediaType: 'image/png',
      base64: 'iVBORw0K',
    });
    expect(parseDataUri('data:image/jpeg;name=a.jpg;base64,/9j/')).toEqual({
      mediaType: 'image/jpeg',
      base64: '/9j/',
    });
    expect(parseDataUri('data:;base64,AAAA')).toEqual({ mediaType: '', base64: 'AAAA' });
  });

  it.each([
    ['data:text/plain,hello', 'data URI is not Base64-encoded (";base64," missing)'],
    ['data:image/png;base64', 'data URI has no comma before its data'],
    ['http://x/y', 'not a data URI'],
  ])('refuses %j', (value, message) => {
    expect(() => parseDataUri(value)).toThrow(message);
  });
});
