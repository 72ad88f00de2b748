/** Compares two pets as exact JSON (integers as bigint): same id, name, categoryId and status. */

/** `undefined` when `actual` carries the same fields as `expected`, else what differs. */
export function samePet(
  expected: unknown,
  actual: unknown,
  fields = ['id', 'name', 'categoryId', 'status'],
): string | undefined {
  const a = (expected ?? {}) as Record<string, unknown>;
  const b = (actual ?? {}) as Record<string, unknown>;
  for (const field of fields) {
    if (a[field] !== b[field]) return `${field} ${show(a[field])} became ${show(b[field])}`;
  }
  return undefined;
}

/** Shows a field value, bigint digits included. */
export function show(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string' && value.length > 60)
    return `${JSON.stringify(value.slice(0, 60))}... (${value.length} chars)`;
  return JSON.stringify(value) ?? 'undefined';
}
