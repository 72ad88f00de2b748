/**
 * The QA half of the control surface, in-process: the client compliance report and chaos.
 * control.ts spreads it into `fake.control`; control-handlers.ts serves it over HTTP.
 */

import { ControlInputError } from '../control/control-input-error.ts';
import type { FakeState } from '../core/fake-state.ts';
import { type ChaosSettings, checkChaosSettings } from './chaos-settings.ts';
import type { ClientReport } from './client-report.ts';

/** Control functions for QA: the client report and chaos. */
export interface QaControl {
  /** The client compliance report: every key's clients, their verdicts per rule, the latest requests. */
  clients(): ClientReport;
  /** The chaos settings in force, or `null` for none. */
  chaos(): ChaosSettings | null;
  /** Replaces the chaos settings (checked whole: bad settings throw and change nothing); streams restart from the seed. */
  setChaos(settings: unknown): ChaosSettings;
  /** Turns chaos off. */
  clearChaos(): void;
}

/** Creates the QA control functions over a fake's state. */
export function createQaControl(state: FakeState): QaControl {
  return {
    clients: () =>
      state.qa.clients.report(
        state.clock.now(),
        Date.now(),
        state.clock.frozen,
        state.keys.map((key) => key.key),
      ),
    chaos: () => state.qa.chaos.settings(),
    setChaos(settings) {
      const checked = checkChaosSettings(settings, (message) => {
        throw new ControlInputError(message);
      });
      state.qa.chaos.set(checked);
      return checked;
    },
    clearChaos: () => state.qa.chaos.set(null),
  };
}
