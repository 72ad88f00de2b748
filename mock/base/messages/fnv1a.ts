/**
 * FNV-1a (32 bits) over bytes or a string's UTF-8: a short, stable name for a request body, so
 * the same create sent again is known for one (the client report's re-sent creates, a browser
 * tab's possible copies). Not a digest: two bodies may share a name, which only makes a copy look
 * likely.
 */
export function fnv1a(bytes: Uint8Array | string): number {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  let hash = 0x811c9dc5;
  // Indexed: V8 runs `for...of` over a Uint8Array several times slower (bench/optimisations.md),
  // and the client report hashes every create.
  for (let index = 0; index < data.length; index++)
    hash = Math.imul(hash ^ (data[index] as number), 0x01000193) >>> 0;
  return hash;
}
