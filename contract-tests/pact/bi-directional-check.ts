/**
 * PactFlow's bi-directional check (@pactflow/swagger-mock-validator), installed and run as a user
 * of PactFlow would: pinned by contract-tests/pact/pactflow-bi-directional/ (its own package.json
 * and package-lock.json, apart from the root project, whose `npm install` it never touches),
 * installed there with `npm ci --install-strategy=nested` into the git-ignored
 * node_modules/.cache/petstore-fake/pactflow-bi-directional/, once per checkout: reused while
 * the pinned files are unchanged.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

const pinned = join(import.meta.dirname, 'pactflow-bi-directional');
const pinnedFiles = ['package.json', 'package-lock.json', '.npmrc'];
const cache = resolve(
  import.meta.dirname,
  '../../node_modules/.cache/petstore-fake/pactflow-bi-directional',
);
const stampFile = 'pinned-files.sha256';
const validator = 'node_modules/@pactflow/swagger-mock-validator';
// Its package exports no subpath to resolve its bin by: the file its package.json `bin` names.
const bin = join(cache, validator, 'bin/swagger-mock-validator.mjs');
// Its postinstall (patch-package) patches its own ajv so that a whitespace-only string is no
// longer coerced to the number 0; this line of ajv's code generator carries the patch.
const patchedAjv = join(validator, 'node_modules/ajv/dist/compile/validate/dataType.js');

/** A finished command: its exit code (null when killed) and what it wrote, stdout then stderr. */
export interface CommandResult {
  status: number | null;
  output: string;
}

/** Runs a command to its end (or its time-out), collecting its output; never rejects on exit code. */
function runCommand(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout: number },
): Promise<CommandResult> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('close', (status) => done({ status, output: stdout + stderr }));
  });
}

function pinnedHash(): string {
  const hash = createHash('sha256');
  for (const name of pinnedFiles) hash.update(`${name}\n`).update(readFileSync(join(pinned, name)));
  return hash.digest('hex');
}

/**
 * `npm test` runs under `npm run`, which hands its own project's settings to child processes
 * (npm_config_local_prefix is the root, npm_config_allow_scripts its list, ...): the
 * sub-project's install must read its own. The user's registry, cache and user config stay.
 */
function npmEnvironment(): NodeJS.ProcessEnv {
  const kept = new Set(['npm_config_registry', 'npm_config_cache', 'npm_config_userconfig']);
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') || kept.has(name)),
  );
}

/**
 * Installs the pinned validator unless the cache already holds this pin; answers its CLI's path.
 * Throws with npm's whole output when the install fails: no check ran, so nothing passed.
 */
export async function installBiDirectionalCheck(): Promise<string> {
  const stamp = pinnedHash();
  const stampPath = join(cache, stampFile);
  if (existsSync(bin) && existsSync(stampPath) && readFileSync(stampPath, 'utf8') === stamp)
    return bin;
  // Installed beside the cache, then moved in whole: a failed or interrupted install leaves no
  // half-filled cache that a later run would take for a good one.
  const staging = `${cache}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const name of pinnedFiles) copyFileSync(join(pinned, name), join(staging, name));
  const command = ['ci', '--install-strategy=nested', '--foreground-scripts', '--no-audit'];
  const install = await runCommand('npm', command, {
    cwd: staging,
    env: npmEnvironment(),
    timeout: 240_000,
  }).catch((error: Error) => ({ status: null, output: String(error) }));
  const patched =
    install.status === 0 && readFileSync(join(staging, patchedAjv), 'utf8').includes('.trim()');
  if (!patched) {
    rmSync(staging, { recursive: true, force: true });
    const why =
      install.status === 0
        ? "its postinstall did not patch its own ajv (was it skipped? npm's allowScripts, --ignore-scripts)"
        : `npm exited with ${install.status ?? 'no code (killed after 240 s)'}`;
    throw new Error(
      `bi-directional check: \`npm ${command.join(' ')}\` of contract-tests/pact/pactflow-bi-directional failed: ${why}. It needs the npm registry (npm config get registry). npm said:\n${install.output}`,
    );
  }
  writeFileSync(join(staging, stampFile), stamp);
  rmSync(cache, { recursive: true, force: true });
  renameSync(staging, cache);
  return bin;
}

/** Runs the installed validator's CLI, `swagger-mock-validator <spec> <pact>`, as its README shows. */
export function runBiDirectionalCheck(
  cli: string,
  spec: string,
  pact: string,
): Promise<CommandResult> {
  return runCommand(process.execPath, [cli, spec, pact], { timeout: 60_000 });
}
