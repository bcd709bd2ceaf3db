/**
 * A short, stable hash (FNV-1a, 32 bits, hex). Automatic names and temporaries are built from it
 * so that they depend only on the text of their own statement.
 */
export function shortHash(text: string, length = 4): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0").slice(0, length);
}
