/**
 * How each server under test is started: the fake exactly as `npm start` runs it (the bundle
 * scripts/build-server.ts writes; the bench builds it first), Prism as
 * `prism mock openapi/petstore.yaml`, WireMock standalone (the jar the npm package `wiremock`
 * ships, run by the machine's `java`) and the bare ceiling server.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import packageJson from '../package.json' with { type: 'json' };
import { serverBundlePath } from '../scripts/build-server.ts';
import type { ServerSpec } from './processes.ts';
import { benchHeaders, unboundLimitsFlags } from './requests.ts';

/** The project root (the bench runs every server from there). */
export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Whether `root` is this checkout, however it is written (`.`, a trailing slash). */
export function isThisCheckout(root: string): boolean {
  return resolve(root) === resolve(projectRoot);
}

/** `npm start`'s server: the CLI bundled by its prestart step. */
const fakeCli = serverBundlePath;

/**
 * The Node flags `npm start` runs the bundle with (package.json's `start` script is
 * `node [flags] <bundle>`), so every fake the bench starts from the bundle runs as `npm start`
 * runs it.
 */
export const startNodeFlags: readonly string[] = (() => {
  const [command, ...rest] = packageJson.scripts.start.split(/\s+/);
  const flags = rest.slice(0, -1);
  if (command !== 'node' || flags.some((flag) => !flag.startsWith('--')))
    throw new Error(
      `bench: package.json's start script must read "node [--flags] <bundle>", got "${packageJson.scripts.start}"`,
    );
  return flags;
})();
/** The same CLI run from source, as the tests and older checkouts run it. */
export const fakeSourceCli = fileURLToPath(new URL('../mock/doors/cli/cli.ts', import.meta.url));
const ceilingScript = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url));
const prismCli = createRequire(import.meta.url).resolve('@stoplight/prism-cli');
const openapi = fileURLToPath(new URL('../openapi/petstore.yaml', import.meta.url));

/** A server the throughput section compares. */
export type TargetId = 'fake' | 'wiremock' | 'prism-silent' | 'prism-default' | 'ceiling';

/** How targets are named in tables and the chart. */
export const targetLabels: Record<TargetId, string> = {
  fake: 'fake (npm start)',
  wiremock: 'WireMock standalone (warm)',
  'prism-silent': 'Prism -v silent',
  'prism-default': 'Prism (default logging)',
  ceiling: 'bare node:http ceiling',
};

/** The base URL of a target on `port`: Prism serves the paths without the /v1 prefix. */
export function baseUrl(target: TargetId, port: number): string {
  return target.startsWith('prism') ? `http://127.0.0.1:${port}` : `http://127.0.0.1:${port}/v1`;
}

/**
 * The fake as `npm start` runs it, on `port` only, without its request log, with the bench key's
 * limits out of reach. `extra` adds flags (e.g. `--seed <file>`); `root` runs another checkout.
 */
export function fakeSpec(
  port: number,
  extra: readonly string[] = [],
  root: string = projectRoot,
): ServerSpec {
  const here = isThisCheckout(root);
  return {
    name: 'fake',
    script: here ? fakeCli : join(root, 'mock/doors/cli/cli.ts'),
    ...(here ? { nodeFlags: startNodeFlags } : {}),
    args: [
      '--port',
      String(port),
      '--no-staging',
      '--quiet',
      ...unboundLimitsFlags,
      // The bench's pages are id order (the harness's and bench's order, named here): once the
      // warm-up filled them, creates append past them and every round answers the same bytes.
      // An older checkout has no --list-order: it only knew id order.
      ...(here ? ['--list-order', 'oldest-first'] : []),
      ...extra,
    ],
    readyUrl: `${baseUrl('fake', port)}/pets?limit=1`,
    readyHeaders: { Authorization: benchHeaders.Authorization },
    cwd: root,
    readyTimeoutMs: 120_000,
  };
}

/** V8's sampling interval for a profiled fake, µs: fine enough for stages of a microsecond. */
export const profileIntervalUs = 100;

/**
 * The bench's fake under V8's CPU profiler, writing its `.cpuprofile` into `dir` on exit;
 * `preload` modules run first (`--import`).
 */
export function profiledFakeSpec(
  port: number,
  dir: string,
  preload: readonly string[] = [],
): ServerSpec {
  const spec = fakeSpec(port);
  return {
    ...spec,
    nodeFlags: [
      ...(spec.nodeFlags ?? []),
      ...preload.flatMap((module) => ['--import', module]),
      '--cpu-prof',
      '--cpu-prof-dir',
      dir,
      '--cpu-prof-interval',
      String(profileIntervalUs),
    ],
  };
}

/** The fake exactly as the README starts it (`npm start -- --port <port>`: staging on port + 1, request log on). */
export function fakeDefaultSpec(port: number): ServerSpec {
  return {
    name: 'fake (npm start)',
    script: fakeCli,
    nodeFlags: startNodeFlags,
    args: ['--port', String(port)],
    readyUrl: `${baseUrl('fake', port)}/pets?limit=20`,
    readyHeaders: { Authorization: benchHeaders.Authorization },
    cwd: projectRoot,
  };
}

/** The jar of the `wiremock` dev dependency. */
function wiremockJar(): string {
  const dir = join(
    dirname(createRequire(import.meta.url).resolve('wiremock/package.json')),
    'build',
  );
  const jar = readdirSync(dir).find((name) => /^wiremock-standalone-.*\.jar$/.test(name));
  if (jar === undefined) throw new Error(`bench: no wiremock-standalone jar in ${dir}`);
  return join(dir, jar);
}

/** Why WireMock cannot run here (no `java` on PATH), or undefined when it can. */
export function wiremockUnavailable(): string | undefined {
  const java = spawnSync('java', ['-version'], { stdio: 'ignore', timeout: 30_000 });
  return java.status === 0
    ? undefined
    : 'no `java` on PATH (Debian: apt-get install openjdk-17-jre-headless)';
}

/**
 * WireMock standalone serving the stubs in `rootDir/mappings` (the fake's own answers), without
 * its request journal or request logging, which a load test would only fill.
 */
export function wiremockSpec(port: number, rootDir: string, readyPath: string): ServerSpec {
  return {
    name: 'wiremock',
    command: 'java',
    nodeFlags: ['-jar'],
    script: wiremockJar(),
    args: [
      '--port',
      String(port),
      '--bind-address',
      '127.0.0.1',
      '--root-dir',
      rootDir,
      '--disable-banner',
      '--no-request-journal',
      '--disable-request-logging',
    ],
    readyUrl: `${baseUrl('wiremock', port)}${readyPath}`,
    readyHeaders: { Authorization: benchHeaders.Authorization },
    cwd: projectRoot,
    readyTimeoutMs: 120_000,
  };
}

/** `prism mock openapi/petstore.yaml`, with its default logging or `-v silent`. */
export function prismSpec(port: number, silent: boolean): ServerSpec {
  return {
    name: silent ? 'prism -v silent' : 'prism',
    script: prismCli,
    args: [
      'mock',
      openapi,
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      ...(silent ? ['-v', 'silent'] : []),
    ],
    readyUrl: `${baseUrl('prism-default', port)}/pets?limit=20`,
    readyHeaders: { Authorization: benchHeaders.Authorization },
    cwd: projectRoot,
  };
}

/** The bare ceiling server answering from `bodiesFile` (see ceiling-server.ts). */
export function ceilingSpec(port: number, bodiesFile: string, readyPath: string): ServerSpec {
  return {
    name: 'ceiling',
    script: ceilingScript,
    args: ['--port', String(port), '--bodies', bodiesFile],
    readyUrl: `${baseUrl('ceiling', port)}${readyPath}`,
    cwd: projectRoot,
  };
}
