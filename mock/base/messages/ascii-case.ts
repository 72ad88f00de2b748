/**
 * ASCII case-insensitive comparison without a lower-case copy: header names and auth schemes
 * are compared so on every request (RFC 9110 sections 5.1 and 11.1), and `toLowerCase()` made a
 * string each time.
 */

/** Whether `text` starts with `lowerPrefix` (written in lower case), ignoring ASCII case. */
export function startsWithIgnoringCase(text: string, lowerPrefix: string): boolean {
  if (text.length < lowerPrefix.length) return false;
  for (let i = 0; i < lowerPrefix.length; i++) {
    const code = text.charCodeAt(i);
    // 'A'-'Z' to 'a'-'z'; every other code unit as it is.
    if ((code >= 65 && code <= 90 ? code + 32 : code) !== lowerPrefix.charCodeAt(i)) return false;
  }
  return true;
}

/** Whether `text` is `lower` (written in lower case), ignoring ASCII case. */
export function equalsIgnoringCase(text: string, lower: string): boolean {
  return text.length === lower.length && startsWithIgnoringCase(text, lower);
}
