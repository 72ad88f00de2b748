/**
 * What stops a long-running command (the proxy, a run): SIGINT, SIGTERM, or its parent going
 * away. npm 11, killed by SIGTERM, exits 143 without passing the signal on, and the command is
 * re-parented; without this it would keep its port and never print its verdict.
 */

/** Why a command was told to stop. */
export type StopReason = 'SIGINT' | 'SIGTERM' | 'parent gone';

/**
 * What a signal after the first does. `exit-now`: the process ends at once, without its verdict
 * (an active run, whose checks are its own). `finish`: nothing; the process finishes what the
 * first signal started (the proxy must end its command's whole group, which takes at most 3 s,
 * and write its report and `--junit`: CI runners and `timeout` send more than one signal).
 */
export type LaterSignals = 'exit-now' | 'finish';

/** How often the parent is looked for: a re-parented command notices within this (ms). */
const parentPollMs = 500;

/**
 * Resolves with the first of SIGINT, SIGTERM or the parent process going away (its parent pid
 * changes). From the call on, the signals do not end the process by default: the caller finishes.
 * Later signals do what `later` says.
 */
export function untilStopped(later: LaterSignals = 'exit-now'): Promise<StopReason> {
  return new Promise((resolve) => {
    const startParent = process.ppid;
    const finish = (reason: StopReason) => {
      clearInterval(poll);
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      if (later === 'exit-now') {
        // The first signal asks for the verdict; a second one means "now", without it.
        process.once('SIGINT', () => process.exit(130));
        process.once('SIGTERM', () => process.exit(143));
      } else {
        // Listening keeps Node from ending the process on the signal: every later one is absorbed.
        const absorb = () => {};
        process.on('SIGINT', absorb);
        process.on('SIGTERM', absorb);
      }
      resolve(reason);
    };
    const onInt = () => finish('SIGINT');
    const onTerm = () => finish('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    // A command started by init (pid 1) or from outside its pid namespace (0) has no parent to lose.
    const poll = setInterval(() => {
      if (startParent > 1 && process.ppid !== startParent) finish('parent gone');
    }, parentPollMs);
    poll.unref();
  });
}
