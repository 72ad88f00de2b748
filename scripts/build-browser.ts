/**
 * Builds the browser demo (mock/doors/browser/): bundles demo.ts with esbuild for `platform: 'browser'`,
 * which fails on any `node:*` import, and writes or serves index.html, demo.js and
 * mockServiceWorker.js.
 *   node scripts/build-browser.ts                  writes mock/doors/browser/dist/
 *   node scripts/build-browser.ts --serve [--port 5180]   also serves it on 127.0.0.1
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { describeParseError } from '../mock/doors/cli-shared/unknown-flag.ts';
import { listenProblem } from '../mock/doors/http/listen-problem.ts';
import { type StaticFile, serveStatic } from '../test/support/static-server.ts';

const browserDir = fileURLToPath(new URL('../mock/doors/browser', import.meta.url));

/** The demo bundle and the source files it was built from (for checks on what it pulls in). */
export interface DemoBundle {
  readonly js: string;
  readonly inputs: readonly string[];
}

/** Bundles mock/doors/browser/demo.ts for the browser, in memory. */
export async function bundleDemo(): Promise<DemoBundle> {
  const result = await build({
    entryPoints: [join(browserDir, 'demo.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: 'inline',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const js = result.outputFiles[0]?.text;
  if (js === undefined) throw new Error('build-browser: esbuild produced no output');
  return { js, inputs: Object.keys(result.metafile.inputs) };
}

/**
 * Every file of the demo site, by URL path: the page, its bundle, msw's worker script and the
 * fake's worker around it (public/fake-worker.js: page loads never wait on a tab that went away).
 */
export function demoFiles(bundle: DemoBundle): Record<string, StaticFile> {
  const html: StaticFile = {
    body: readFileSync(join(browserDir, 'index.html'), 'utf8'),
    contentType: 'text/html; charset=utf-8',
  };
  return {
    '/': html,
    '/index.html': html,
    '/demo.js': { body: bundle.js, contentType: 'text/javascript; charset=utf-8' },
    ...Object.fromEntries(
      ['mockServiceWorker.js', 'fake-worker.js'].map((file) => [
        `/${file}`,
        {
          body: readFileSync(join(browserDir, 'public', file), 'utf8'),
          contentType: 'text/javascript; charset=utf-8',
        },
      ]),
    ),
  };
}

/** Waits until a demo page's fake is ready (demo.ts marks `#status` once it is). */
export async function demoReady(page: Pick<Page, 'waitForSelector'>): Promise<void> {
  await page.waitForSelector('#status[data-ready="true"]', { timeout: 15_000 });
}

/** Misuse of the script (a bad flag, a busy port): one line, exit 2. */
class DemoUsageError extends Error {}

const demoFlags = { serve: { type: 'boolean' }, port: { type: 'string' } } as const;

async function main(): Promise<void> {
  let values: { serve?: boolean; port?: string };
  try {
    ({ values } = parseArgs({ options: demoFlags }));
  } catch (error) {
    throw new DemoUsageError(
      `build-browser: ${describeParseError(error, Object.keys(demoFlags))}; valid options: --serve, --port <n>`,
    );
  }
  const port = Number(values.port ?? 5180);
  if (!/^\d{1,5}$/.test(values.port ?? '5180') || port > 65535)
    throw new DemoUsageError(
      `build-browser: --port must be an integer 0-65535, got "${values.port}"`,
    );
  const files = demoFiles(await bundleDemo());
  const outDir = join(browserDir, 'dist');
  mkdirSync(outDir, { recursive: true });
  for (const [path, file] of Object.entries(files)) {
    if (path !== '/') writeFileSync(join(outDir, path), file.body);
  }
  console.log(`build-browser: wrote ${outDir}`);
  if (values.serve) {
    let site: Awaited<ReturnType<typeof serveStatic>>;
    try {
      site = await serveStatic(files, port);
    } catch (error) {
      const problem = listenProblem(error, {
        flag: '--port',
        port,
        host: '127.0.0.1',
        zeroPicksFree: true,
      });
      if (problem === undefined) throw error;
      throw new DemoUsageError(`build-browser: ${problem}`);
    }
    console.log(`build-browser: demo at ${site.origin}/ (Ctrl-C to stop)`);
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    // Our own misuse errors already say how to fix them; a stack adds nothing.
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = error instanceof DemoUsageError ? 2 : 1;
  }
}
