/**
 * Interface coverage from the harness's side (`--coverage <file>`): what a run really exercised,
 * exchange by exchange and check by check, beside what it skipped and why; and what the real
 * traffic through the proxy exercised. The model and its formats are the fake's
 * (mock/steps/qa/coverage/interface-coverage.ts), so the three sources read alike.
 */

import {
  type CoverageExchange,
  type CoverageRecord,
  type CoverageRecorder,
  coverageFormatOf,
  coverageItems,
  createCoverageRecorder,
  formatCoverage,
  isErrorBody,
  writeOutputFile,
} from '../../mock/internal/entry.ts';
import { type Exchange, secondKeyPlaceholder } from '../http/exchange.ts';
import type { CheckResult } from '../runner/results.ts';
import type { Redactor } from './redact.ts';

/** Which key a harness exchange used, by the variable that holds it (never the key). */
function keyNameOf(exchange: Exchange): string | undefined {
  const { auth } = exchange.spec;
  if (typeof auth === 'object' && auth.header.includes(secondKeyPlaceholder))
    return 'PETSTORE_API_KEY_2';
  return exchange.authenticated ? 'PETSTORE_API_KEY' : undefined;
}

/** One harness or proxy exchange in the coverage model's words; undefined without an answer. */
function coverageExchangeOf(
  exchange: Exchange,
  who: { readonly keyId?: string | undefined; readonly checkId?: string | undefined },
): CoverageExchange | undefined {
  const { response, spec } = exchange;
  if (response === undefined) return undefined;
  const url = new URL(exchange.url);
  return {
    operationId: spec.operationId === 'other' ? undefined : spec.operationId,
    method: spec.method,
    path: `${url.pathname}${url.search}`,
    query: url.searchParams,
    status: response.status,
    header: (name) => response.headers.get(name) ?? undefined,
    errorBody: isErrorBody(response.json),
    at: exchange.sentAtEpochMs,
    keyId: who.keyId,
    checkId: who.checkId,
  };
}

/**
 * Why a run did not exercise an item: the skipped checks that would have (their kind and
 * reason), or that no check of the harness sends it.
 */
function skippedReasons(results: readonly CheckResult[]): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const item of coverageItems) {
    if (item.checks.length === 0) {
      reasons.set(item.id, 'no check of the harness sends it; only traffic can show it');
      continue;
    }
    const skipped = results.filter(
      (result) => item.checks.includes(result.id) && result.status === 'skip',
    );
    const ran = results.some(
      (result) => item.checks.includes(result.id) && result.status !== 'skip',
    );
    if (skipped.length > 0 && !ran)
      reasons.set(
        item.id,
        skipped
          .map((result) => `${result.id}: ${result.skip ?? 'skipped'}: ${result.reason ?? ''}`)
          .join('; '),
      );
  }
  return reasons;
}

/** Collects a harness run's coverage: exchanges are credited to the active check that sent them. */
export interface RunCoverage {
  /** Every exchange of the run (the client's onExchange). */
  see(exchange: Exchange): void;
  /** The preflight is over: what came so far was its. */
  planned(): void;
  /** A check finished: the exchanges since the last one were its, if it is an active check. */
  finished(result: CheckResult): void;
  /** The record, with the skipped items' reasons from the run's results. */
  record(results: readonly CheckResult[]): CoverageRecord;
}

/** Creates the coverage of one harness run. */
export function createRunCoverage(): RunCoverage {
  const recorder = createCoverageRecorder();
  let pending: Exchange[] = [];
  const flush = (checkId: string | undefined) => {
    for (const exchange of pending) {
      const seen = coverageExchangeOf(exchange, { keyId: keyNameOf(exchange), checkId });
      if (seen !== undefined) recorder.see(seen);
    }
    pending = [];
  };
  return {
    see: (exchange) => pending.push(exchange),
    planned: () => flush('preflight'),
    finished: (result) => {
      if (result.kind === 'active') flush(result.id);
    },
    record(results) {
      flush(undefined);
      return recorder.record('harness', Date.now(), skippedReasons(results));
    },
  };
}

/** Collects the proxy's coverage: every exchange under the base path, by the key's hashed id. */
export function createProxyCoverage(): {
  readonly see: (exchange: Exchange, keyId: string | undefined) => void;
  readonly record: () => CoverageRecord;
} {
  const recorder: CoverageRecorder = createCoverageRecorder();
  return {
    see(exchange, keyId) {
      const seen = coverageExchangeOf(exchange, { keyId });
      if (seen !== undefined) recorder.see(seen);
    },
    record: () => recorder.record('proxy', Date.now()),
  };
}

/**
 * Writes a record to `path` in the format its name says (.md, .xml, .ctrf.json, else JSON),
 * redacted (the record before it is formatted, as Markdown's escapes would split a secret, and
 * the text after); returns an error message instead of throwing.
 */
export function writeCoverage(
  path: string,
  record: CoverageRecord,
  redact: Redactor,
): string | undefined {
  try {
    writeOutputFile(path, redact(formatCoverage(redact.json(record), coverageFormatOf(path))));
    return undefined;
  } catch (error) {
    return `cannot write the --coverage file ${path}: ${(error as Error).message}`;
  }
}

/** One line for the console: how much of the interface the run or the traffic exercised. */
export function coverageLine(record: CoverageRecord, path: string): string {
  const { summary } = record;
  return `interface coverage: ${summary.exercised} of ${summary.items} items exercised, ${summary.skipped} skipped, ${summary.notExercised} not exercised (${path})`;
}
