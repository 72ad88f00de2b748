/**
 * The official verifier's process (see official-verifier.ts): for each `{id, file, origin}` it
 * is sent, runs @pact-foundation/pact's Verifier as its README shows and sends back the verdict.
 */
import { Verifier } from '@pact-foundation/pact';
import { officialVerifierOptions } from './official-verifier.ts';

process.on('message', async (request: { id: number; file: string; origin: string }) => {
  const { id, file, origin } = request;
  try {
    await new Verifier(officialVerifierOptions(file, origin)).verifyProvider();
    process.send?.({ id, loaded: true, passed: true, message: '' });
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    // The core's own words when it cannot read the file (pact_verifier's "Failed to load pact").
    const loaded = !message.includes('Failed to load pact');
    process.send?.({ id, loaded, passed: false, message: message.slice(0, 4000) });
  }
});
