/** A stable 32-bit hash of a text (FNV-1a over its UTF-8 bytes). Same text, same number, on every machine. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Hashes several parts as one text, with a separator that cannot be confused with the parts' own text. */
export function hashParts(...parts: (string | number)[]): number {
  return hashText(parts.map(String).join('\u0000'));
}
