/**
 * The one redaction every output passes through: the Pact file, interface coverage in every
 * format, the client report, the request log, and the harness's and the proxy's reports. It is
 * applied where an output is written (Pact's `pact-broker publish`, Schemathesis's
 * `--output-sanitize`), never where each field is read, so a field added to an output later is
 * covered without an edit. What it hides, wherever in a text it stands:
 *
 * - every known secret (the keys of every keys file and plan, the control token, the harness's
 *   keys), as sent, JSON-escaped, XML-escaped, percent-encoded (any mix of encoded and plain
 *   characters, and encoded twice) and in base64 at every byte alignment, as inside a Basic
 *   credential, in the standard and URL-safe alphabets;
 * - the value of any `Bearer` or `Basic` credential, known or not;
 * - the values of credential-shaped query and form parameters (`?api_key=`, `?access_token=`,
 *   `key=`), JSON fields (`"password": ...`) and header-like lines (`X-Api-Key: ...`).
 *
 * Placeholders our own outputs write where a credential was (`[redacted]`,
 * `Bearer REDACTED-API-KEY`) are left as they are, so redacting twice changes nothing.
 */
import { formsOf } from './secret-forms.ts';

/** What a hidden credential is shown as. */
export const redacted = '[redacted]';

/** The Pact file's Authorization placeholders: of the right form, and no fake's key. */
export const credentialPlaceholders = {
  /** A key that authenticated: the verifier sends the key its state setup answers instead. */
  knownKey: 'Bearer REDACTED-API-KEY',
  /** A bearer key that matched none: any unknown key is refused alike. */
  unknownKey: 'Bearer not-a-known-key',
  /** Any other Authorization header (`Basic`, no scheme...): base64 of "redacted". */
  otherScheme: 'Basic cmVkYWN0ZWQ=',
} as const;

/** Credential values that are our own placeholders (the part after the scheme), never a secret. */
const placeholderValues = new Set(
  Object.values(credentialPlaceholders).map((header) => header.slice(header.indexOf(' ') + 1)),
);

/** A secret to hide, and what stands in its place (`[redacted]` unless said). */
export interface Secret {
  readonly value: string;
  readonly shownAs?: string;
}

/** What a redaction hides. */
export interface RedactionOptions {
  /**
   * The secrets as they stand, asked at every output (keys are added and reset while a fake
   * runs). Their forms are worked out again only when the list changed (the same array, or the
   * same entries in a new one, is no change).
   */
  readonly secrets: () => readonly (string | Secret)[];
  /**
   * Keep hiding every secret `secrets` ever gave, after it is gone (a key a reset removed still
   * appears in coverage kept across resets). At most `maxRemembered` are kept.
   */
  readonly remember?: boolean;
  /**
   * Also hide every fragment of 8 or more characters of each form: a key cut by a preview, a
   * log line or a truncating server (the harness, which reads servers it did not write).
   */
  readonly fragments?: boolean;
  /** A credential value that may be shown as it is (the harness's own made-up keys). */
  readonly shown?: (value: string) => boolean;
}

/** Hides secrets and credentials in the texts, URLs and JSON values of an output. */
export interface Redaction {
  /** The text with every secret and credential replaced. */
  text(text: string): string;
  /** A request URL's path and query, as an output may show it. */
  url(url: URL): string;
  /**
   * A copy of a JSON value (objects, arrays, strings, numbers...) with every string and field
   * name redacted, and the values of credential-shaped fields replaced whole: any value of a
   * field named as a JSON credential (`password`, `apiKey`), and a list of values of a field
   * named as a query credential (`key`, `code`: a Pact file's query and headers hold lists,
   * while its own `key` and an Error's `code` are single strings). Values that are not plain
   * JSON (a bigint) are kept as they are.
   */
  json<Value>(value: Value): Value;
}

/** Secrets shorter than this are not hidden: they would match innocent text. */
const minSecretLength = 6;
/** Fragments (and the index's heads) are this long. */
const gramLength = 8;
/** Most secrets remembered, those that stand first: past it, the longest gone are forgotten. */
const maxRemembered = 10_000;

/**
 * The endings of a name that holds a credential, for parameters, fields and headers alike: a
 * `key` after a separator or a credential word (`access_key`, `secret_key`, `private_key`,
 * `subscription-key` as Azure's `Ocp-Apim-Subscription-Key`, `x-functions-key`, `accessKey`),
 * a signature or a credential (AWS SigV4's `X-Amz-Signature` and `X-Amz-Credential`, GCS's
 * `X-Goog-Signature`, `credentials`). Keys that name no secret (`Idempotency-Key`, a sort or
 * public key) are left as they are.
 */
const credentialEnding =
  /(?:(?<!idempotency|cache|sort|partition|primary|foreign|public|object|group|message|dedup|dedupe|routing|hash|row)[-_]key|(?:access|secret|private|subscription|signing|master|account|auth|app|client|session|encryption)key|signature|credentials?|token|secret|password|api[-_]?key)$/i;

/**
 * Query and form parameters whose values are credentials. Broad, as an `=` pair in a URL or a
 * form body names little else (`?key=` is an API key on Google's APIs, `?code=` an OAuth grant).
 */
const parameterName =
  /^(?:api[-_]?key|apikey|key|token|access[-_]?token|refresh[-_]?token|id[-_]?token|auth|authorization|bearer|password|passwd|pwd|secret|client[-_]?secret|signature|sig|session|sessionid|code)$/i;

/**
 * JSON fields and header-like names whose values are credentials. Narrower: in JSON, `key` names
 * a Pact interaction and `code` an Error body's code.
 */
const fieldName =
  /^(?:api[-_]?key|apikey|x[-_]api[-_]key|authorization|proxy[-_]authorization|bearer|password|passwd|pwd|secret|client[-_]?secret|private[-_]?key)$/i;

/** Whether a query or form parameter's name says it holds a credential. */
function isParameterName(name: string): boolean {
  return parameterName.test(name) || credentialEnding.test(name);
}

/** Whether a JSON field's or a header's name says it holds a credential. */
function isFieldName(name: string): boolean {
  return fieldName.test(name) || credentialEnding.test(name);
}

// A name starts where a run of name characters starts (the lookbehind), and the repetitions
// before the part that must follow are bounded: otherwise a long run of name characters with no
// `=` after it is tried from every position of the run, and a large file takes quadratic time.
/** Authentication schemes whose value is a credential. */
const schemeValue = /\b(?:bearer|basic)(?:\s|%20|\+){1,8}([A-Za-z0-9\-._~+/]+=*)/gi;
/** `name=value`, as in a query, a form body or a Content-Type parameter. */
const equalsPair = /(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)(?:=|%3[dD])([^&;,\s"'<>|#)}\]\\]*)/g;
/** `"name": "value"` or `"name": 123`, as in JSON text. */
const jsonPair = /"([^"\\]{1,64})"\s{0,8}:\s{0,8}(?:"((?:[^"\\]|\\.)*)"|(-?\d[\d.eE+-]*))/g;
/**
 * `Name: value`, as in a header line: a header's name has no underscore, so prose about a
 * variable (`PETSTORE_API_KEY: check it`) is not taken for one.
 */
const colonPair = /(?<![A-Za-z0-9_-])([A-Za-z0-9-]+):[ \t]{0,8}([^\s,;"'&<>]+)/g;
/** Scheme words a header-like line may start its value with: the scheme rule hides what follows. */
const schemeWord = /^(?:bearer|basic)$/i;

/** A span of the text to replace. */
interface Span {
  readonly start: number;
  readonly end: number;
  readonly shownAs: string;
}

/** A text as searched: itself, or percent-decoded with where each character came from. */
interface View {
  readonly text: string;
  /** Where each character of `text` starts and ends in the original; undefined: the same. */
  readonly starts?: readonly number[];
  readonly ends?: readonly number[];
}

const hex = /%[0-9A-Fa-f]{2}/;

/** The view percent-decoded once, byte by byte, or undefined when nothing is encoded. */
function decoded(view: View): View | undefined {
  const { text } = view;
  if (!hex.test(text)) return undefined;
  let out = '';
  const starts: number[] = [];
  const ends: number[] = [];
  const startOf = (at: number) => view.starts?.[at] ?? at;
  const endOf = (at: number) => view.ends?.[at] ?? at + 1;
  for (let at = 0; at < text.length; ) {
    const digits = text.slice(at + 1, at + 3);
    const encoded = text.charCodeAt(at) === 37 && /^[0-9A-Fa-f]{2}$/.test(digits);
    out += encoded ? String.fromCharCode(Number.parseInt(digits, 16)) : text[at];
    const last = encoded ? at + 2 : at;
    starts.push(startOf(at));
    ends.push(endOf(last));
    at = last + 1;
  }
  return { text: out, starts, ends };
}

/** The secrets' forms, indexed for one pass over a text. */
interface SecretIndex {
  /** Forms of at least `gramLength` characters by their first `gramLength` characters. */
  readonly byHead: Map<string, { readonly form: string; readonly shownAs: string }[]>;
  /** Shorter forms, looked for one by one. */
  readonly short: readonly { readonly form: string; readonly shownAs: string }[];
  /** Every fragment of `gramLength` characters of every form (fragments mode only). */
  readonly grams: Map<string, string> | undefined;
  readonly empty: boolean;
}

function indexOf(secrets: readonly Secret[], fragments: boolean): SecretIndex {
  const byHead = new Map<string, { form: string; shownAs: string }[]>();
  const short: { form: string; shownAs: string }[] = [];
  const grams = fragments ? new Map<string, string>() : undefined;
  for (const { value, shownAs = redacted } of secrets) {
    if (value.length < minSecretLength) continue;
    for (const form of formsOf(value, minSecretLength)) {
      if (form.length < gramLength) {
        short.push({ form, shownAs });
        continue;
      }
      const head = form.slice(0, gramLength);
      const list = byHead.get(head) ?? [];
      list.push({ form, shownAs });
      byHead.set(head, list);
      if (grams !== undefined)
        for (let at = 0; at + gramLength <= form.length; at++)
          grams.set(form.slice(at, at + gramLength), shownAs);
    }
  }
  return { byHead, short, grams, empty: byHead.size === 0 && short.length === 0 };
}

/** A value our outputs may show: empty, a placeholder, a shell variable, or one the user allows. */
function shownValue(value: string, shown: ((value: string) => boolean) | undefined): boolean {
  const bare = value
    .trim()
    .replace(/^(?:bearer|basic)(?:\s|%20|\+)+/i, '')
    .trim();
  return (
    bare === '' ||
    bare.startsWith('[redacted') ||
    bare.startsWith('$') ||
    placeholderValues.has(bare) ||
    shown?.(bare) === true
  );
}

function plainText(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/** The spans of one view that hold a secret, a credential value or a credential pair's value. */
function spansOf(
  view: View,
  secrets: SecretIndex,
  shown: RedactionOptions['shown'],
  spans: Span[],
): void {
  const { text } = view;
  const push = (start: number, end: number, shownAs: string) => {
    if (end > start)
      spans.push({
        start: view.starts?.[start] ?? start,
        end: view.ends?.[end - 1] ?? end,
        shownAs,
      });
  };
  /** Hides the `value` that ends `match` (less `after` characters, a closing quote). */
  const pushValue = (match: RegExpMatchArray, value: string, after = 0) => {
    const end = (match.index as number) + match[0].length - after;
    push(end - value.length, end, redacted);
  };
  if (!secrets.empty) {
    for (let at = 0; at + gramLength <= text.length; at++) {
      const head = text.slice(at, at + gramLength);
      if (secrets.grams !== undefined) {
        const shownAs = secrets.grams.get(head);
        if (shownAs !== undefined) push(at, at + gramLength, shownAs);
        continue;
      }
      const forms = secrets.byHead.get(head);
      if (forms === undefined) continue;
      for (const { form, shownAs } of forms)
        if (text.startsWith(form, at)) push(at, at + form.length, shownAs);
    }
    for (const { form, shownAs } of secrets.short)
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1))
        push(at, at + form.length, shownAs);
  }
  for (const match of text.matchAll(schemeValue)) {
    const value = match[1] as string;
    if (!shownValue(value, shown)) pushValue(match, value);
  }
  for (const match of text.matchAll(equalsPair)) {
    const [, name = '', value = ''] = match;
    if (value === '' || !isParameterName(plainText(name)) || shownValue(value, shown)) continue;
    pushValue(match, value);
  }
  for (const match of text.matchAll(jsonPair)) {
    const [, name = '', quoted, number] = match;
    const value = quoted ?? number ?? '';
    if (value === '' || !isFieldName(name) || shownValue(value, shown)) continue;
    pushValue(match, value, quoted === undefined ? 0 : 1);
  }
  for (const match of text.matchAll(colonPair)) {
    const [, name = '', value = ''] = match;
    if (!isFieldName(name) || schemeWord.test(value) || shownValue(value, shown)) continue;
    pushValue(match, value);
  }
}

/** `input` with each span of it shown as its placeholder. */
function withSpansShown(input: string, spans: Span[]): string {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (let i = 0; i < spans.length; ) {
    const first = spans[i] as Span;
    let { end, shownAs } = first;
    // Overlapping and touching spans are one: a run of fragments, a secret within a value. A
    // secret's own placeholder says more than `[redacted]`, and wins.
    for (i += 1; i < spans.length && (spans[i] as Span).start <= end; i += 1) {
      const next = spans[i] as Span;
      end = Math.max(end, next.end);
      if (shownAs === redacted) shownAs = next.shownAs;
    }
    out += input.slice(at, first.start) + shownAs;
    at = end;
  }
  return out + input.slice(at);
}

/**
 * Creates a redaction.
 * @example const redaction = createRedaction({ secrets: () => [key, token] }); redaction.text(line)
 */
export function createRedaction(options: RedactionOptions): Redaction {
  const fragments = options.fragments ?? false;
  const { shown } = options;
  let seenList: readonly (string | Secret)[] | undefined;
  const remembered = new Map<string, Secret>();
  let index: SecretIndex = indexOf([], fragments);

  /** The index of the secrets as they stand; worked out again only when they changed. */
  const current = (): SecretIndex => {
    const list = options.secrets();
    const seen = seenList;
    const same =
      list === seen ||
      (seen?.length === list.length && list.every((each, at) => each === seen[at]));
    if (same) return index;
    seenList = list;
    const secrets = list.map((each) => (typeof each === 'string' ? { value: each } : each));
    if (options.remember === true) {
      // The secrets as they stand go in last, so past the bound the oldest gone ones leave first.
      for (const secret of secrets) {
        remembered.delete(secret.value);
        remembered.set(secret.value, secret);
      }
      while (remembered.size > maxRemembered)
        remembered.delete(remembered.keys().next().value as string);
    }
    index = indexOf(options.remember === true ? [...remembered.values()] : secrets, fragments);
    return index;
  };

  function text(input: string): string {
    if (input.length < 4) return input;
    const secrets = current();
    const spans: Span[] = [];
    // The text as it is, then decoded once and twice: a secret percent-encoded in any mix of
    // encoded and plain characters, or encoded twice, is found in one of them.
    let view: View | undefined = { text: input };
    for (let depth = 0; view !== undefined && depth < 3; depth++) {
      spansOf(view, secrets, shown, spans);
      view = decoded(view);
    }
    return spans.length === 0 ? input : withSpansShown(input, spans);
  }

  const credentialValue = (value: unknown): unknown => {
    if (typeof value === 'string') return shownValue(value, shown) ? value : redacted;
    if (typeof value === 'number' || typeof value === 'bigint') return redacted;
    if (Array.isArray(value)) return value.map(credentialValue);
    return json(value);
  };

  function json<Value>(value: Value): Value {
    if (typeof value === 'string') return text(value) as Value;
    if (Array.isArray(value)) return value.map((item) => json(item)) as Value;
    if (value === null || typeof value !== 'object') return value;
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    // Entries, not assignment: a field may be called `__proto__`.
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        text(name),
        isFieldName(name) || (Array.isArray(item) && isParameterName(name))
          ? credentialValue(item)
          : json(item),
      ]),
    ) as Value;
  }

  return {
    text,
    url: (url) => text(`${url.pathname}${url.search}`),
    json,
  };
}
