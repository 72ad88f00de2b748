/** Defence in depth: whatever the harness prints or writes passes through here first. */
import { keyPlaceholder } from '../http/exchange.ts';

/** Replaces every occurrence of the key in `text` with `$PETSTORE_API_KEY`. */
export function redact(text: string, apiKey: string): string {
  // Very short keys would redact innocent text; such keys are not worth protecting this way.
  if (apiKey.length < 6) return text;
  return text.split(apiKey).join(keyPlaceholder);
}
