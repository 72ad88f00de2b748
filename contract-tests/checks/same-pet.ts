/**
 * Compares two pets as exact JSON (integers as bigint): every field the document gives Pet (id,
 * name, categoryId, status, and any it adds).
 */
import { petFieldNames } from '../contract/pet-fields.ts';

/** `undefined` when `actual` carries the same fields as `expected`, else what differs. */
export function samePet(
  expected: unknown,
  actual: unknown,
  fields: readonly string[] = petFieldNames,
): string | undefined {
  const a = (expected ?? {}) as Record<string, unknown>;
  const b = (actual ?? {}) as Record<string, unknown>;
  for (const field of fields) {
    if (!sameValue(a[field], b[field]))
      return `${field} ${show(a[field])} became ${show(b[field])}`;
  }
  return undefined;
}

/**
 * Whether two exact-JSON values are equal: primitives by value (an integer-valued number equals
 * the same `bigint`, as JSON cannot tell them apart), arrays and objects field by field.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' && typeof b === 'number') return Number.isInteger(b) && a === BigInt(b);
  if (typeof a === 'number' && typeof b === 'bigint') return sameValue(b, a);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) =>
    sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/** Shows a field value, bigint digits included. */
export function show(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string' && value.length > 60)
    return `${JSON.stringify(value.slice(0, 60))}... (${value.length} chars)`;
  return JSON.stringify(value) ?? 'undefined';
}
