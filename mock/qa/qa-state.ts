/**
 * The QA part of a fake's state: its chaos and its client report. Kept apart from the rest of
 * FakeState so that QA features add one field there, not one per feature.
 */
import { type Chaos, createChaos } from './chaos.ts';
import type { ChaosSettings } from './chaos-settings.ts';
import { type ClientReporter, createClientReporter } from './client-report.ts';

/** One fake's QA state. */
export interface QaState {
  readonly chaos: Chaos;
  readonly clients: ClientReporter;
  /** The chaos settings the fake started with, which a control reset goes back to. */
  readonly initialChaos: ChaosSettings | null;
}

/** Creates the QA state of a fake that starts with `chaos` (none by default). */
export function createQaState(chaos: ChaosSettings | null = null): QaState {
  return { chaos: createChaos(chaos), clients: createClientReporter(), initialChaos: chaos };
}
