/**
 * Runs the calibration probes against a target, within a request budget, through the harness's
 * own client (paced by X-RateLimit-*, every 429 honoured), and turns what they found into a
 * profile. Choices a probe could not learn, or was not allowed to try, are listed with the reason.
 */
import type { FakeProfile } from '../../mock/internal/entry.ts';
import { ContractUsageError } from '../base/usage-error.ts';
import { isStopSignal } from '../checks/property.ts';
import { listPetsRequest } from '../checks/requests.ts';
import { preflight } from '../runner/preflight.ts';
import type { RunClient } from '../runner/run-client.ts';
import { type Findings, probes, toProfile } from './probes.ts';

/** Options of one calibration. */
export interface CalibrateOptions {
  /**
   * The calibration's client (createRunClient), built by its command: the target, `--budget`
   * (default 60, a Free key's minute; + the window with `rateLimits`), `--timeout`, the waits.
   */
  readonly client: RunClient;
  /** May create pets (default: loopback targets only). */
  readonly writes?: boolean;
  /** May spend the key's window once, to see a 429 (`--rate-limits`). */
  readonly rateLimits?: boolean;
  /** Prefix of the names of pets the probes create. */
  readonly runPrefix?: string;
}

/** A calibration's profile and what it cost. */
export interface Calibration {
  readonly profile: FakeProfile;
  readonly requests: number;
  readonly keyRequests: number;
}

/** Learns the target's choices. Throws ContractUsageError when the target cannot be used. */
export async function calibrate(options: CalibrateOptions): Promise<Calibration> {
  const { target, client, fixedBudget } = options.client;
  const { budget, clock } = client;
  const writes = options.writes ?? target.loopback;
  const rateLimits = options.rateLimits ?? false;
  const runPrefix = options.runPrefix ?? `calibrate-${Date.now().toString(36)}-`;
  await preflight(target.baseUrl, () => client.send(listPetsRequest()));
  const selected = probes.filter(
    (probe) => (probe.needs !== 'writes' || writes) && (probe.needs !== 'rateLimits' || rateLimits),
  );
  const planned = selected.reduce((sum, probe) => sum + probe.cost, 0);
  const quota = client.quota();
  const window = rateLimits ? (quota.limit ?? quota.remaining ?? 0) + 2 : 0;
  if (fixedBudget === undefined)
    budget.resize(Math.max(60, budget.used + planned + window), 'the default budget');
  else if (budget.used + planned + window > fixedBudget)
    throw new ContractUsageError(
      `--budget ${fixedBudget} is too small for calibrate: the probes asked need up to ${budget.used + planned + window} requests; rerun with --budget ${budget.used + planned + window}`,
    );

  const findings: Findings = { choices: {}, errorCodes: {}, notLearned: {} };
  for (const probe of probes) {
    if (probe.needs === 'writes' && !writes) {
      findings.notLearned[probe.learns] =
        'creates pets: pass --allow-writes (names start with the run prefix)';
      continue;
    }
    if (probe.needs === 'rateLimits' && !rateLimits) {
      findings.notLearned[probe.learns] =
        "spends the key's window to see a 429: pass --rate-limits";
      continue;
    }
    try {
      await probe.run(
        {
          send: (spec, sendOptions) => client.send(spec, sendOptions),
          runPrefix,
          remaining: () => client.quota().remaining,
        },
        findings,
      );
    } catch (error) {
      if (!isStopSignal(error)) throw error;
      findings.notLearned[probe.learns] = `stopped: ${error.message}`;
    }
  }
  return {
    profile: toProfile(findings, target.baseUrl, new Date(clock.now())),
    requests: client.stats.requests,
    keyRequests: client.stats.keyRequests,
  };
}
