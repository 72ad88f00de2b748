/**
 * Which checks run in which mode, as the planner decides it: the README's mode table is this
 * table written out (readme.test.ts holds them together), so the README never claims a check
 * runs where the code skips it.
 */
import type { Check } from '../checks/check.ts';
import { allChecks } from '../checks/registry.ts';
import { fullCapabilities, type Target } from '../http/target.ts';
import { passiveObservers } from '../proxy/passive-verdicts.ts';
import { selectChecks } from '../runner/plan.ts';
import { prismMockCapabilities } from '../targets/prism-targets.ts';

/** The modes the table has a column for, in order. */
export const modeNames = [
  'remote, read-only',
  'loopback (writes)',
  '--rate-limits',
  '--prism-mock',
  'proxy',
] as const;

/** One cell: runs, opt-in (not selected without a flag), not applicable, or not judged. */
type Cell = 'runs' | 'opt-in' | 'n/a' | '—';

function target(loopback: boolean, capabilities = fullCapabilities): Target {
  return {
    name: 't',
    baseUrl: 'http://h/v1',
    apiKey: 'k',
    loopback,
    capabilities,
    viaPrism: false,
    route: () => ({ sendUrl: '', reproUrl: '' }),
    close: async () => {},
  };
}

function cells(run: Target, writes: boolean, rateLimitRun: boolean): Map<string, Cell> {
  const selection = selectChecks(allChecks, run, { writes, rateLimitRun, writesOffReason: '' });
  const cell = new Map<string, Cell>();
  for (const check of [...selection.active, ...selection.observers]) cell.set(check.id, 'runs');
  for (const { check, kind } of selection.skipped)
    cell.set(check.id, kind === 'not-applicable' ? 'n/a' : 'opt-in');
  return cell;
}

/** The table's rows: each check id and its cell in every mode. */
export function modeRows(): { id: string; cells: Cell[] }[] {
  const passive = new Set(passiveObservers(undefined).map((check) => check.id));
  const columns = [
    cells(target(false), false, false),
    cells(target(true), true, false),
    cells(target(true), true, true),
    cells(target(true, prismMockCapabilities), true, false),
  ];
  return allChecks.map((check: Check) => ({
    id: check.id,
    cells: [
      ...columns.map((column) => column.get(check.id) ?? '—'),
      passive.has(check.id) ? 'runs' : check.id === 'rateLimit.planLimits' ? 'opt-in' : '—',
    ],
  }));
}
