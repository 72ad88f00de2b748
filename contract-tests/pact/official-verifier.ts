/**
 * The official Pact verifier (@pact-foundation/pact's Verifier, configured as its README's
 * "Provider API Testing" section shows, states set up through the fake's provider-states route)
 * in a child process of its own (official-verifier-process.ts), for tests that verify many pacts:
 * its native core prints each verification to the process's stdout, not through `console`, and
 * there that goes nowhere; a panic in the core ends that process, not the test run. Verdicts
 * come back over IPC.
 */
import { type ChildProcess, fork } from 'node:child_process';

/** What the official verifier made of one pact file. */
interface OfficialVerdict {
  /** False when it refused the file itself ("Failed to load pact ..."). */
  readonly loaded: boolean;
  /** True when it loaded the file and every interaction passed. */
  readonly passed: boolean;
  /** Its report when it did not pass (its JSON results, or the error), else empty. */
  readonly message: string;
}

/** A running verifier process. */
export interface OfficialVerifier {
  /**
   * Verifies `file` against the fake at `origin` (`http://127.0.0.1:<port>`): the pact's paths
   * under `<origin>/v1`, its states set up at `<origin>/__control/provider-states`.
   */
  verify(file: string, origin: string): Promise<OfficialVerdict>;
  close(): void;
}

const childPath = new URL('./official-verifier-process.ts', import.meta.url).pathname;

/**
 * The Verifier's options for a pact file and the fake at `origin` (`http://127.0.0.1:<port>`),
 * as its README's "Provider API Testing" section gives them: the pact's paths under
 * `<origin>/v1`, its provider states set up at `<origin>/__control/provider-states`.
 */
export function officialVerifierOptions(file: string, origin: string) {
  return {
    provider: 'petstore',
    providerBaseUrl: `${origin}/v1`,
    pactUrls: [file],
    providerStatesSetupUrl: `${origin}/__control/provider-states`,
    logLevel: 'error' as const,
  };
}

/** Starts the verifier's process; close it when done. */
export function startOfficialVerifier(): OfficialVerifier {
  const child: ChildProcess = fork(childPath, [], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, PACT_DO_NOT_TRACK: 'true' },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = `${stderr}${chunk}`.slice(-4000);
  });
  const waiting = new Map<number, (verdict: OfficialVerdict) => void>();
  let next = 0;
  child.on('message', ({ id, ...verdict }: OfficialVerdict & { id: number }) => {
    waiting.get(id)?.(verdict);
    waiting.delete(id);
  });
  const failAll = (why: string) => {
    for (const resolve of waiting.values()) resolve({ loaded: false, passed: false, message: why });
    waiting.clear();
  };
  child.on('exit', (code, signal) =>
    failAll(`the verifier's process ended (${signal ?? code}): ${stderr}`),
  );
  return {
    verify: (file, origin) =>
      new Promise((resolve) => {
        next += 1;
        waiting.set(next, resolve);
        child.send({ id: next, file, origin });
      }),
    close: () => {
      child.kill();
    },
  };
}
