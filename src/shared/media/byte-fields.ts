/** Reads fixed-width fields out of a byte array. Reads past the end give 0 / '' (callers check length). */

export function startsWithBytes(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

/** Latin-1 text of `length` bytes at `at`, or '' when the bytes are not all there. */
export function asciiAt(bytes: Uint8Array, at: number, length: number): string {
  if (length <= 0 || at < 0 || bytes.length < at + length) return '';
  let text = '';
  for (let i = at; i < at + length; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}

export function uint16be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

export function uint16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

export function uint24le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);
}

export function uint32be(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] ?? 0) << 24) |
      ((bytes[at + 1] ?? 0) << 16) |
      ((bytes[at + 2] ?? 0) << 8) |
      (bytes[at + 3] ?? 0)) >>>
    0
  );
}

export function uint32le(bytes: Uint8Array, at: number): number {
  return int32le(bytes, at) >>> 0;
}

export function int32le(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at] ?? 0) |
    ((bytes[at + 1] ?? 0) << 8) |
    ((bytes[at + 2] ?? 0) << 16) |
    ((bytes[at + 3] ?? 0) << 24)
  );
}
