/**
 * The harness's side of the one redaction (mock/base/messages/redaction.ts): everything the harness,
 * verify-pact, calibrate and the proxy print or write passes through it. It hides the API key in
 * any form a server might echo it in (as sent, JSON-escaped, percent-encoded, base64 at any
 * alignment, as inside a Basic header) and any fragment of 8 or more characters of those (a key
 * cut by a preview, a log line or a truncating server), shown as `$PETSTORE_API_KEY`; and, as
 * every output of the fake does, any Bearer or Basic value and the values of credential-shaped
 * parameters and fields. The harness's own made-up keys (`Bearer contract-invalid-...`) and the
 * key's placeholder are shown as they are, so replay and curl lines still reproduce a failure.
 */
import { createRedaction, type Secret } from '../../mock/internal/entry.ts';
import { madeUpTokenPrefix } from '../arbitraries/auth-header.ts';
import { keyPlaceholder, secondKeyPlaceholder } from '../http/exchange.ts';

/** Replaces every secret and credential in a text; `json` does the same inside a JSON value. */
export type Redactor = ((text: string) => string) & {
  readonly json: <Value>(value: Value) => Value;
};

/** What the harness writes that looks like a credential and is none (see auth-header.ts). */
const madeUp = (value: string) => value.startsWith(madeUpTokenPrefix);

/**
 * A redactor for the secrets `secrets` gives as they stand (a proxy learns keys from traffic).
 * @example createRedactor(() => [{ value: key, shownAs: keyPlaceholder }])(`body: ${text}`)
 */
export function createRedactor(secrets: () => readonly Secret[]): Redactor {
  const redaction = createRedaction({ secrets, fragments: true, shown: madeUp });
  return Object.assign((text: string) => redaction.text(text), { json: redaction.json });
}

/** A redactor for one key, shown as `placeholder` (`$PETSTORE_API_KEY` unless said). */
export function createKeyRedactor(apiKey: string, placeholder = keyPlaceholder): Redactor {
  const secrets = [{ value: apiKey, shownAs: placeholder }];
  return createRedactor(() => secrets);
}

/**
 * The secrets a command reads from the environment: `PETSTORE_API_KEY`, `PETSTORE_API_KEY_2`,
 * and the fake's `PETSTORE_CONTROL_TOKEN` (a CI job that runs the fake and the proxy sets it).
 */
export function envSecrets(env: NodeJS.ProcessEnv): readonly Secret[] {
  return [
    { value: env.PETSTORE_API_KEY?.trim() ?? '', shownAs: keyPlaceholder },
    { value: env.PETSTORE_API_KEY_2?.trim() ?? '', shownAs: secondKeyPlaceholder },
    { value: env.PETSTORE_CONTROL_TOKEN?.trim() ?? '', shownAs: '$PETSTORE_CONTROL_TOKEN' },
  ];
}

/** A redactor for the secrets a run reads from the environment (see `envSecrets`). */
export function createEnvRedactor(env: NodeJS.ProcessEnv): Redactor {
  const secrets = envSecrets(env);
  return createRedactor(() => secrets);
}
