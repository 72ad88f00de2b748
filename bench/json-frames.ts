/**
 * Preloaded (`node --import`) into the fake of the stage pass only: V8's CPU profiler folds the
 * time of a builtin into the function that called it, so `JSON.parse` and `JSON.stringify` would
 * count as the door's or a recorder's own time. Named wrappers give them frames of their own,
 * in this file, which bench/stages.ts counts as "JSON in and out". The timed rounds never load
 * this file.
 */
const parse = JSON.parse;
const stringify = JSON.stringify;

JSON.parse = function jsonParse(text: string, reviver?: (key: string, value: unknown) => unknown) {
  return parse(text, reviver);
};

JSON.stringify = function jsonStringify(
  value: unknown,
  replacer?: ((key: string, value: unknown) => unknown) | (number | string)[] | null,
  space?: string | number,
) {
  return stringify(value, replacer as never, space);
} as typeof JSON.stringify;
