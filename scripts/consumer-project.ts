/**
 * A user's project with this package installed, built the way a user gets it: the package is
 * built and packed (`npm pack`), then installed with `npm ci --offline` into a fresh project in a
 * temporary folder, started as the tests guide starts one (`npm init -y`, then its
 * `npm pkg set type=module`). The package test (consumer-package.test.ts) runs its checks there.
 *
 * Offline: `npm install` of the repository has put every tarball in the npm cache, but not the
 * registry's package documents that resolving a version range needs. So the project gets a
 * lockfile, as a real project has one: its entries are this repository's lockfile entries for
 * the packages it needs (same versions, same integrity), and npm takes each tarball from the
 * cache by its integrity, never from the network.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import packageJson from '../package.json' with { type: 'json' };
import { buildPackage } from './build-package.ts';
import { fencedBlocks } from './markdown-blocks.ts';
import { packedManifest, packedReadme } from './packed-manifest.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The environment of a command run in a consumer project at `dir`: this Node first on PATH, then
 * the project's bins; none of the running vitest's variables (the project's runner would take
 * them as its own), nor the names `drop` matches (what a test's own commands must not inherit);
 * no colours in the output the checks read; npm from its cache where it can, quiet about audits,
 * funding and updates.
 */
export function projectEnvironment(dir: string, drop?: RegExp): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) => !/^VITEST|^FORCE_COLOR$/.test(name) && drop?.test(name) !== true,
      ),
    ),
    PATH: [dirname(process.execPath), join(dir, 'node_modules', '.bin'), process.env.PATH]
      .filter(Boolean)
      .join(delimiter),
    NO_COLOR: '1',
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}

/** A package entry of a v3 lockfile (the fields this file reads). */
interface LockEntry {
  readonly version?: string;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { readonly optional?: boolean }>;
}

/** The temporary project: where it is, the packed tarball, and how to remove both. */
export interface ConsumerProject {
  /** The project's folder (package.json, node_modules/). */
  readonly dir: string;
  /** What the tests guide's first commands (`npm init -y`, `npm pkg set type=module`) printed. */
  readonly startOutput: string;
  /** The `npm pack` tarball it installed. */
  readonly tarball: string;
  /** The files the tarball holds, as `npm pack --json` lists them. */
  readonly packedFiles: readonly string[];
  /** Runs a command in the project; throws with its output when it exits non-zero. */
  run(command: string, args: readonly string[], env?: NodeJS.ProcessEnv): string;
  /** Removes the project, the tarball and the package build. */
  remove(): void;
}

/** The tests guide's first shell block: how a new project starts (`npm init -y` ...). */
function testsGuideStart(): string {
  const guide = readFileSync(join(root, 'docs', 'tests.md'), 'utf8');
  const start = fencedBlocks(guide).find(
    (block) => block.lang === 'sh' && block.text.startsWith('npm init -y'),
  );
  if (start === undefined)
    throw new Error('consumer project: docs/tests.md no longer starts a project with npm init -y');
  return start.text;
}

/** The project's own devDependencies: what a user of the fake in vitest has. */
const consumerDevDependencies = ['msw', 'vitest', '@types/node'];

function run(cwd: string, command: string, args: readonly string[], env?: NodeJS.ProcessEnv) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  });
  if (result.status !== 0)
    throw new Error(
      `consumer project: \`${command} ${args.join(' ')}\` exited ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`,
    );
  return result.stdout;
}

/**
 * The entries of the repository's lockfile that `names` need, by path, found the way Node
 * resolves: a dependency of `node_modules/a` is `node_modules/a/node_modules/b` if that exists,
 * else the nearest one up the tree.
 */
function lockClosure(names: readonly string[]): Record<string, LockEntry> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const found: Record<string, LockEntry> = {};
  const resolve = (from: string, name: string): string | undefined => {
    for (let base = from; ; base = dirname(dirname(base))) {
      const path =
        base === '' || base === '.' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
      if (lock.packages[path]) return path;
      if (base === '' || base === '.') return undefined;
    }
  };
  const visit = (path: string): void => {
    const entry = lock.packages[path];
    if (found[path] || !entry) return;
    found[path] = entry;
    const peers = Object.keys(entry.peerDependencies ?? {}).filter(
      (name) => !entry.peerDependenciesMeta?.[name]?.optional,
    );
    const needed = [
      ...Object.keys(entry.dependencies ?? {}),
      ...Object.keys(entry.optionalDependencies ?? {}),
      ...peers,
    ];
    for (const name of needed) {
      const target = resolve(path, name);
      if (target) visit(target);
    }
  };
  for (const name of names) {
    const path = resolve('', name);
    if (!path) throw new Error(`consumer project: ${name} is not in package-lock.json`);
    visit(path);
  }
  return found;
}

/** A packed tarball of the package: its file name in `work`, integrity and files. */
export interface PackedPackage {
  readonly filename: string;
  readonly integrity: string;
  readonly files: readonly { readonly path: string }[];
}

/**
 * Builds the package into a copy of its files under `work` and packs it there, with the
 * manifest and README that `npm pack` ships (packed-manifest.ts: no install scripts, no
 * "Working on this repository").
 */
export async function packPackage(work: string): Promise<PackedPackage> {
  // A copy, so that this build never replaces the repository's dist/ under a running `npm pack`.
  const stage = join(work, 'package');
  mkdirSync(stage);
  for (const file of ['package.json', 'README.md', ...packageJson.files]) {
    if (file !== 'dist') cpSync(join(root, file), join(stage, file), { recursive: true });
  }
  writeFileSync(
    join(stage, 'package.json'),
    `${JSON.stringify(packedManifest(packageJson), null, 2)}\n`,
  );
  writeFileSync(
    join(stage, 'README.md'),
    packedReadme(readFileSync(join(root, 'README.md'), 'utf8')),
  );
  await buildPackage(stage);
  const [packed] = JSON.parse(
    run(stage, 'npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work]),
  ) as PackedPackage[];
  if (!packed) throw new Error('consumer project: npm pack listed no tarball');
  return packed;
}

/**
 * Builds the package into a copy of its files, packs it, and installs it into a new project,
 * with `extraDevDependencies` (names this repository's lockfile holds, at its versions) beside
 * msw, vitest and @types/node.
 */
export async function createConsumerProject(
  extraDevDependencies: readonly string[] = [],
): Promise<ConsumerProject> {
  const work = mkdtempSync(join(tmpdir(), 'petstore-consumer-'));
  const remove = () => rmSync(work, { recursive: true, force: true });
  try {
    const packed = await packPackage(work);

    const dir = join(work, 'app');
    mkdirSync(dir);
    // The project starts as the tests guide starts one: `npm init -y` (which writes "type":
    // "commonjs") and the guide's `npm pkg set type=module`, run as written (docs/tests.md).
    const startOutput = run(dir, 'bash', ['-e', '-c', testsGuideStart()]);
    const started = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const devNames = [...consumerDevDependencies, ...extraDevDependencies];
    const closure = lockClosure([...Object.keys(packageJson.dependencies), ...devNames]);
    const devDependencies = Object.fromEntries(
      devNames.map((name) => [name, closure[`node_modules/${name}`]?.version ?? '']),
    );
    const spec = `file:../${packed.filename}`;
    const manifest = {
      ...started,
      name: String(started.name),
      version: String(started.version),
      private: true,
      dependencies: { 'petstore-fake': spec },
      devDependencies,
    };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const lockfile = {
      name: manifest.name,
      version: manifest.version,
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': {
          name: manifest.name,
          version: manifest.version,
          dependencies: manifest.dependencies,
          devDependencies,
        },
        'node_modules/petstore-fake': {
          version: packageJson.version,
          resolved: spec,
          integrity: packed.integrity,
          dependencies: packageJson.dependencies,
          peerDependencies: packageJson.peerDependencies,
          peerDependenciesMeta: packageJson.peerDependenciesMeta,
          bin: packageJson.bin,
          engines: packageJson.engines,
        },
        ...closure,
      },
    };
    writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lockfile, null, 2)}\n`);
    try {
      run(dir, 'npm', ['ci', '--offline', '--no-audit', '--no-fund']);
    } catch (error) {
      if (!/ENOTCACHED/.test((error as Error).message)) throw error;
      throw new Error(
        `consumer project: a package is not in the npm cache; run \`npm install\` in the repository first (it fills the cache), then the test again.\n${(error as Error).message}`,
      );
    }
    return {
      dir,
      startOutput,
      tarball: join(work, packed.filename),
      packedFiles: packed.files.map((file) => file.path),
      run: (command, args, env) => run(dir, command, args, env),
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}
