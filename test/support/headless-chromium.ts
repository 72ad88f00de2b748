/**
 * The headless Chromium the browser tests start: which one, and the flags this machine needs (no
 * sandbox as root, no GPU, and no background networking, whose connections the closed network
 * refuses by the dozen).
 *
 * Which one, first found: `CHROMIUM_PATH`; Debian's `/usr/bin/chromium`; else the Chromium that
 * the pinned devDependency `@sparticuz/chromium` ships brotli-compressed inside its npm package
 * (with the libraries it needs), unpacked once into the temporary folder. So `npm install && npm
 * test` needs nothing but Node and npm. vitest's global setup (`chromium-global-setup.ts`) finds
 * it once per run, says in one line what it did, and hands the path to the test files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };

/** Debian's Chromium (`apt-get install chromium`), used when present. */
const debianChromium = '/usr/bin/chromium';

/** The browser the run found: its path and one line saying where it came from, or why none. */
export type ChromiumChoice =
  | { readonly path: string; readonly note: string }
  | { readonly problem: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium, found by the global setup. */
    chromium: ChromiumChoice;
  }
}

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The pinned (exact) version of the npm package that ships a Chromium. */
const packagedVersion = packageJson.devDependencies['@sparticuz/chromium'];

/**
 * Unpacks `@sparticuz/chromium` into `folder` unless it is there.
 * The package unpacks into `os.tmpdir()`; a child process with `TMPDIR` set to a fresh folder
 * keeps that away from anyone else's `/tmp/chromium`, and the rename makes the folder appear
 * whole or not at all, so concurrent runs never start a half-written binary.
 */
function unpackedChromium(folder: string): { path: string; unpackedNow: boolean } {
  const binary = join(folder, 'chromium');
  if (existsSync(binary)) return { path: binary, unpackedNow: false };
  const partial = mkdtempSync(`${folder}.partial-`);
  try {
    const unpack = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import chromium from '@sparticuz/chromium'; await chromium.executablePath();",
      ],
      {
        cwd: repositoryRoot,
        env: { ...process.env, TMPDIR: partial },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    if (unpack.status !== 0 || !existsSync(join(partial, 'chromium')))
      throw new Error(`unpacking @sparticuz/chromium failed: ${unpack.stderr || unpack.error}`);
    try {
      renameSync(partial, folder);
    } catch (error) {
      // Another run unpacked it first: theirs is as good as ours.
      if (!existsSync(binary)) throw error;
    }
    return { path: binary, unpackedNow: true };
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/** Where findChromium looks, and where it unpacks the npm one (tests change them). */
interface ChromiumSearch {
  readonly env?: NodeJS.ProcessEnv;
  readonly systemChromium?: string;
  readonly unpackFolder?: string;
}

/** Finds the run's Chromium (unpacking the npm one if there is no other); never throws. */
export function findChromium({
  env = process.env,
  systemChromium = debianChromium,
  unpackFolder = join(tmpdir(), `petstore-chromium-${packagedVersion}`),
}: ChromiumSearch = {}): ChromiumChoice {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '')
    return existsSync(fromEnv)
      ? { path: fromEnv, note: `Chromium: ${fromEnv} (CHROMIUM_PATH)` }
      : { problem: `CHROMIUM_PATH is ${fromEnv}, which does not exist` };
  if (existsSync(systemChromium))
    return { path: systemChromium, note: `Chromium: ${systemChromium} (the system's)` };
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return {
      problem: `no Chromium at ${systemChromium}, and @sparticuz/chromium ships one for Linux x64 only; install Chromium and set CHROMIUM_PATH`,
    };
  try {
    const { path, unpackedNow } = unpackedChromium(unpackFolder);
    const what = unpackedNow ? 'unpacked now to' : 'already unpacked at';
    return {
      path,
      note: `Chromium: none on this system, so @sparticuz/chromium ${packagedVersion} from node_modules, ${what} ${path}`,
    };
  } catch (error) {
    return {
      problem: `no Chromium at ${systemChromium}, and ${(error as Error).message}; install Chromium and set CHROMIUM_PATH`,
    };
  }
}

/**
 * The run's Chromium for a test file; throws, naming the test and how to get a browser, when
 * there is none.
 */
export function chromiumPath(test: string): string {
  const choice = inject('chromium');
  if (choice === undefined)
    throw new Error(
      `${test}: no Chromium was looked for; run it with the repository's vitest.config.ts`,
    );
  if ('problem' in choice) throw new Error(`${test}: ${choice.problem}`);
  return choice.path;
}

/** The command-line flags of every headless Chromium the tests start; `extra` adds some. */
export function chromiumArgs(extra: readonly string[] = []): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    ...extra,
  ];
}
