/**
 * Keeps secrets out of the request log. A client may put its key in the query string
 * (`?api_key=...`) or even in the path; the log must show neither, in any encoding.
 */

/** Query parameter names that suggest a credential: their values are never logged. */
const credentialName =
  /^(api[-_]?key|apikey|key|token|access[-_]?token|refresh[-_]?token|id[-_]?token|auth|authorization|bearer|password|passwd|pwd|secret|client[-_]?secret|signature|sig|session|sessionid|code)$|(token|secret|password|api[-_]?key)$/i;

const REDACTED = '[redacted]';

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * The path and query of `url` as the log shows them: values of credential-like parameters, and
 * any path segment, parameter name or value that holds one of `secrets` (raw or decoded), become
 * `[redacted]`.
 */
export function redactUrl(url: URL, secrets: readonly string[]): string {
  const holdsSecret = (text: string) => {
    const plain = decoded(text);
    return secrets.some((secret) => text.includes(secret) || plain.includes(secret));
  };
  const path = url.pathname
    .split('/')
    .map((segment) => (holdsSecret(segment) ? REDACTED : segment))
    .join('/');
  if (url.search === '') return path;
  const query = url.search
    .slice(1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      if (holdsSecret(name)) return REDACTED;
      if (equals === -1) return pair;
      const value = pair.slice(equals + 1);
      return credentialName.test(decoded(name)) || holdsSecret(value)
        ? `${name}=${REDACTED}`
        : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
