/** Where a command writes and what it may know about how it was started. */
import type { LaterSignals, StopReason } from './stop-signals.ts';

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Whether report labels may be coloured (stdout is a terminal and NO_COLOR is unset). */
  readonly colour?: boolean;
  /** Starts listening for what stops a long-running command (a signal, the parent gone). */
  readonly untilStopped?: (later?: LaterSignals) => Promise<StopReason>;
  /** The command as the user invoked it, for usage and replay lines (default: the npm script). */
  readonly command?: string;
  /** Where the harness's README is, for the help. */
  readonly docs?: string;
}
