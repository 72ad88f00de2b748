/**
 * Runs a fenced shell block from the documentation in one bash process (variables set on one line
 * are there on the next), command by command, and pairs each command's output with the comment
 * lines under it, which the documentation uses to show what the command prints.
 */
import { spawnSync } from 'node:child_process';

/** One command of a block, what it printed, and the comment lines that follow it. */
export interface ShellStep {
  readonly command: string;
  readonly output: string;
  readonly expectation: readonly string[];
  /** The command's exit status. */
  readonly status: number;
}

/** Splits a block into commands (joining `\` continuations), each with its comment lines. */
export function shellCommands(block: string): { command: string; comments: string[] }[] {
  const commands: { command: string; comments: string[] }[] = [];
  let pending = '';
  for (const line of block.split('\n')) {
    if (pending === '' && /^\s*#/.test(line)) {
      commands.at(-1)?.comments.push(line.replace(/^\s*#\s?/, ''));
      continue;
    }
    if (pending === '' && line.trim() === '') continue;
    pending += line;
    if (line.endsWith('\\')) {
      pending = `${pending.slice(0, -1)} `;
      continue;
    }
    commands.push({ command: pending, comments: [] });
    pending = '';
  }
  return commands;
}

/**
 * Runs every command of `block` in order in one `bash` (stopping at the first that fails) and
 * returns each one's output and exit status.
 */
export function runShellBlock(block: string, env: NodeJS.ProcessEnv, cwd: string): ShellStep[] {
  const commands = shellCommands(block);
  // A marker line before each command and its status after it; the outputs lie in between.
  const script = `exec 2>&1\n${commands
    .map(
      ({ command }, index) =>
        `printf '\\n@@step ${index}\\n'\n${command}\nstatus=$?; printf '\\n@@status %d\\n' "$status"; [ "$status" -eq 0 ] || exit "$status"`,
    )
    .join('\n')}`;
  const result = spawnSync('bash', ['-c', script], {
    cwd,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  const sections = result.stdout.split(/\n@@step \d+\n/).slice(1);
  return commands.map(({ command, comments }, index) => {
    const section = sections[index];
    const match = section === undefined ? undefined : /^([\s\S]*)\n@@status (\d+)\n/.exec(section);
    return {
      command,
      output: match?.[1] ?? section ?? '',
      expectation: comments,
      status: match?.[2] === undefined ? -1 : Number(match[2]),
    };
  });
}
