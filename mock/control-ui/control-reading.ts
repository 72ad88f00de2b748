/**
 * What the control UI reads of the fake: through its control surface only, never the interface,
 * so reading spends no request of any key's window. The same reading works on the browser's shared
 * fake (whose control functions return promises), on an in-process `createFake()` (a Storybook
 * page; values) and on the control routes over HTTP (the QA page, qa-page.ts).
 */
import type { OperationId } from '../base/contract/types.ts';
import type { KeyInfo } from '../steps/control/control.ts';
import type { ClientReport, RecentRequest } from '../steps/qa/client-report/client-report.ts';
import type { ForcedRule } from '../steps/qa/forced-answers/forced-responses.ts';
import type { StubRule } from '../steps/qa/forced-answers/stubbed-answers.ts';
import type { ChaosSettings } from '../steps/qa/injected-failures/chaos-settings.ts';

type Maybe<T> = T | Promise<T>;

/** The control functions the panel calls, of `createBrowserFake()` and `createFake()` alike. */
export interface PanelControl {
  describe(): Maybe<Record<string, unknown>>;
  clients(): Maybe<ClientReport>;
  now(): Maybe<number>;
  advanceTime(seconds: number): Maybe<void>;
  reset(): Maybe<void>;
  force(operationId: OperationId, status: number, count: number): Maybe<ForcedRule>;
  setChaos(settings: unknown): Maybe<ChaosSettings>;
  clearChaos(): Maybe<void>;
}

/** One reading of the fake, with the real time it was taken at (to run its clock on locally). */
export interface ControlReading {
  /** The fake's clock when read, epoch ms. */
  readonly fakeNow: number;
  readonly frozen: boolean;
  /** Real time (`Date.now()`) when read. */
  readonly realNow: number;
  readonly keys: readonly KeyInfo[];
  readonly forced: Readonly<Partial<Record<OperationId, ForcedRule>>>;
  readonly stubs: readonly StubRule[];
  readonly chaos: ChaosSettings | null;
  /** The client report: every client's verdicts and the latest requests, newest first. */
  readonly report: ClientReport;
  /** The report's latest requests of every client, newest first. */
  readonly recent: readonly RecentRequest[];
}

/** A summary that is not the control surface's `describe()`: said, rather than shown wrong. */
class ControlReadingError extends Error {
  override readonly name = 'ControlReadingError';
}

/** Reads the fake: two control calls (`describe()` and `clients()`), no request to the API. */
export async function readFake(
  control: Pick<PanelControl, 'describe' | 'clients'>,
): Promise<ControlReading> {
  const [summary, report] = await Promise.all([control.describe(), control.clients()]);
  const fakeNow = typeof summary.now === 'string' ? Date.parse(summary.now) : Number.NaN;
  if (!Number.isFinite(fakeNow) || !Array.isArray(summary.keys))
    throw new ControlReadingError(
      'petstore-fake panel: fake.control.describe() gave no time or keys; is this a petstore-fake fake?',
    );
  return {
    fakeNow,
    frozen: summary.clockFrozen === true,
    realNow: Date.now(),
    keys: summary.keys as KeyInfo[],
    forced: (summary.forced ?? {}) as ControlReading['forced'],
    stubs: Array.isArray(summary.stubs) ? summary.stubs : [],
    chaos: (summary.chaos ?? null) as ChaosSettings | null,
    report,
    recent: Array.isArray(report?.recent) ? report.recent : [],
  };
}
