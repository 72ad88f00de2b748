/**
 * The create-vite app of docs/app.md for the browser fault tests: made by consumer-app.ts from
 * the guide alone (its commands and files, not its recipes, which these tests do not run), served
 * by its own `npm run dev`. `useFakeWorker` turns it into the app docs/browser.md's "With Vite,
 * page loads kept off the worker" makes of it: msw's plugin in worker-only mode, the fake's
 * `fake-worker.js` in `public/`, and `startFakeWorker` in `src/main.tsx`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../test/support/fake-process.ts';
import { type ConsumerApp, createConsumerApp } from './consumer-app.ts';
import { fencedBlocks, markdownSection } from './markdown-blocks.ts';

const docs = (name: string) => readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8');

/** Makes the app of docs/app.md (npm installs its packages from the npm cache). */
export function createGuideApp(): Promise<ConsumerApp> {
  const guide = docs('app.md');
  return createConsumerApp(guide.slice(0, guide.indexOf('\n## Recipe: ')), [], []);
}

/** Replaces `from` in the app's `file` with `to`; throws when the file does not have it. */
function edit(app: ConsumerApp, file: string, from: RegExp, to: string): void {
  const path = join(app.dir, file);
  const text = readFileSync(path, 'utf8');
  if (!from.test(text)) throw new Error(`guide app: ${file} no longer matches ${from}`);
  writeFileSync(path, text.replace(from, to));
}

/** Applies docs/browser.md's recipe for keeping page loads off msw's worker to the app. */
export function useFakeWorker(app: ConsumerApp): void {
  const recipe = fencedBlocks(
    markdownSection(docs('browser.md'), 'With Vite, page loads kept off the worker'),
  );
  const plugins = recipe.find((block) => block.text.startsWith('// vite.config.ts'));
  const enableFake = recipe.find((block) => block.text.startsWith('// src/main.tsx'));
  const worker = fencedBlocks(docs('browser.md')).find((block) =>
    block.text.trimStart().startsWith('// public/fake-worker.js'),
  );
  if (plugins === undefined || enableFake === undefined || worker === undefined)
    throw new Error("guide app: docs/browser.md's recipe lost a block");
  const line = plugins.text.split('\n').find((each) => each.trim().startsWith('plugins:'));
  if (line === undefined) throw new Error("guide app: the recipe's vite.config.ts has no plugins");
  edit(app, 'vite.config.ts', /^ {2}plugins: .*$/m, line);
  const body = enableFake.text.split('\n').slice(1).join('\n');
  edit(app, 'src/main.tsx', /^async function enableFake\(\) \{\n[\s\S]*?\n\}$/m, body);
  writeFileSync(
    join(app.dir, 'public', 'fake-worker.js'),
    `${worker.text.replace(/^ {3}/gm, '')}\n`,
  );
}

/** A running `npm run dev` of the app. */
export interface DevServer {
  /** The app's page, e.g. `http://127.0.0.1:41235/`. */
  readonly url: string;
  /** Stops the dev server (its whole process group). */
  stop(): void;
}

/** Starts the app's `npm run dev` on a free port; resolves once Vite says where it listens. */
export async function startDevServer(app: ConsumerApp): Promise<DevServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    'npm',
    ['run', 'dev', '--', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
    { cwd: app.dir, env: app.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const stop = () => {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  };
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  for (let waited = 0; !/Local:/.test(output); waited += 100) {
    if (child.exitCode !== null || waited > 60_000) {
      stop();
      throw new Error(`guide app: npm run dev did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `http://127.0.0.1:${port}/`, stop };
}
