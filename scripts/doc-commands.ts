/**
 * Running the documentation's shell commands as a reader does: a command that serves until
 * stopped (the fake, the proxy) in the background, in its own process group, until it prints
 * that it is ready; every other command's output held against the comment the documentation
 * writes under it; a workflow's step run as Actions runs it, against the fake's HTTP door as the
 * server under test. markdown-commands.test.ts runs the repository's quick start with these,
 * shipped-docs-commands.test.ts the shipped guides' commands in a user's project, and the
 * workflow tests the repository's workflow.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'vitest';
import { type FakeTarget, httpFakeTarget } from '../contract-tests/targets/fake-target.ts';
import { mutants } from '../test/harness-fixtures/mutants/catalogue.ts';
import type { ShellStep } from './shell-block.ts';

/** A command without its trailing `# comment`. */
export function withoutComment(command: string): string {
  return command.replace(/\s+#.*$/, '');
}

/** Commands started in the background, each in its own process group, stopped whole by `stop`. */
export function backgroundCommands() {
  const started: ChildProcess[] = [];
  return {
    /** Starts `command` in bash in `cwd`, in its own process group. */
    start(command: string, cwd: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
      const child = spawn('bash', ['-c', command], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      started.push(child);
      return child;
    },
    /** Sends SIGTERM to every group still running and waits for each to exit. */
    async stop(): Promise<void> {
      for (const child of started.splice(0)) {
        if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
          continue;
        const exited = once(child, 'exit');
        process.kill(-child.pid, 'SIGTERM');
        await exited;
      }
    },
  };
}

/** Resolves with the output so far once it matches `pattern`; throws when the process exits. */
export async function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  let text = '';
  child.stdout?.on('data', (chunk) => (text += chunk));
  child.stderr?.on('data', (chunk) => (text += chunk));
  for (let waited = 0; !pattern.test(text); waited += 100) {
    if (child.exitCode !== null || waited > 90_000)
      throw new Error(`${child.spawnargs.join(' ')} did not print ${pattern}:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return text;
}

/** Checks each step against the comment under it: literal output, or error codes it names. */
export function expectAsDocumented(steps: readonly ShellStep[]): void {
  for (const step of steps) {
    expect(step.status, `${step.command}\n${step.output}`).toBe(0);
    for (const comment of step.expectation) {
      // "200 200 200 429   (the 429 says ...)" or "HTTP/1.1 200 OK": output, then an aside.
      const literal = /^((?:\d{3} ?)+|HTTP\/\S+ \d{3}.*?)(?:\s{2,}\(.*)?$/.exec(comment)?.[1];
      if (literal !== undefined) expect(step.output.trim(), step.command).toBe(literal.trim());
      // "four more rate_limited, then temporarily_banned": every error code named is printed.
      for (const code of comment.match(/\b[a-z]+_[a-z_]+\b/g) ?? [])
        expect(step.output, `${step.command}: ${comment}`).toContain(`"code":"${code}"`);
    }
    // curl exits 0 on an error answer too: an Error body the documentation does not show fails.
    const shown = step.expectation.join(' ');
    for (const [, code] of step.output.matchAll(/"code":"(\w+)"/g))
      expect(shown, `${step.command} answered ${step.output}`).toContain(code);
  }
}

/**
 * Runs a bash script in `cwd` to its end (killed past `timeoutMs`): its exit code and output.
 * Not spawnSync: a server the test runs in its own process answers from its event loop.
 */
export async function runBash(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 240_000,
): Promise<{ code: number | null; out: string }> {
  const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, out };
}

/**
 * The fake's HTTP door on a free port, as the server a documented command is pointed at, behind
 * the fault of the mutant named (contract-tests/mutants) when one is; the caller closes it.
 */
export async function fakeServer(apiKey: string, mutant?: string): Promise<FakeTarget> {
  const fault = mutants.find((candidate) => candidate.name === mutant);
  if (mutant !== undefined && fault === undefined) throw new Error(`no mutant ${mutant}`);
  return httpFakeTarget({
    virtualTime: false,
    apiKey,
    ...(fault === undefined ? {} : { wrap: fault.wrap }),
  });
}

/**
 * A workflow step's `env` with each `${{ secrets.NAME }}` given from `secrets`, as Actions fills
 * it in; a secret it was not given throws, naming it.
 */
export function withSecrets(
  env: Readonly<Record<string, string>>,
  secrets: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      value.replace(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g, (_, secret: string) => {
        const given = secrets[secret];
        if (given === undefined) throw new Error(`the workflow names an unknown secret ${secret}`);
        return given;
      }),
    ]),
  );
}
