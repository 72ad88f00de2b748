/**
 * The app guide (docs/app.md, which the package ships and its README links), proven on a real app (consumer-app.ts makes it: create-vite's
 * React + TypeScript template from the npm registry, the packed tarball, the guide's files). In
 * it: the install prints no `install-scripts` warning and copies no worker script into `public/`
 * (msw's Vite plugin serves it);
 * the guide's component tests pass in the app's vitest, configured in `vite.config.ts`, which
 * also takes the tests guide's pact and coverage setup and writes the suite's pact; `tsc`
 * checks the setup file with the app; `npm run build` (tsc -b, vite build) ships neither the fake
 * nor msw nor `mockServiceWorker.js`; and `npm run dev` shows the pets in headless Chromium,
 * answered by the service worker. The app is made once per run and shared by these tests.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import pets from '../fixtures/pets.json' with { type: 'json' };
import { freePort } from '../test/support/fake-process.ts';
import { chromiumArgs, chromiumPath } from '../test/support/headless-chromium.ts';
import { type ConsumerApp, createConsumerApp } from './consumer-app.ts';
import { exampleFileName, fencedBlocks, markdownSection } from './markdown-blocks.ts';

const docs = (name: string) => readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8');
const appGuide = docs('app.md');
/** The guide up to its recipes, which run after it. */
const guide = appGuide.slice(0, appGuide.indexOf('\n## Recipe: '));
if (!guide.startsWith('# In your app (Vite + React, browser)\n'))
  throw new Error('docs/app.md no longer starts with its heading');
const playwrightRecipe = markdownSection(appGuide, 'Recipe: Playwright end-to-end tests');
const storybookRecipe = markdownSection(
  appGuide,
  'Recipe: Storybook stories through `fake.handlers`',
);

let app: ConsumerApp;

beforeAll(async () => {
  // The app takes four files from the tests guide: src/mocks/petstore.ts, which its tests
  // import, with the app's own handlers it imports, and the two vitest files of the pact and coverage setup, the suite's requirement
  // replaced by the line the app guide gives.
  const [requirement] = fencedBlocks(guide)
    .filter((block) => block.text.startsWith('// the requirement in vitest.petstore-suite.ts'))
    .map((block) => block.text.split('\n')[1] ?? '');
  expect(requirement).toMatch(/^ {2}expectInterfaceCoverage\(coverage, \{ require: \[.+\] \}\);$/);
  const shared = fencedBlocks(docs('tests.md'))
    .filter((block) =>
      [
        'src/mocks/petstore.ts',
        'src/mocks/handlers.ts',
        'vitest.petstore-part.ts',
        'vitest.petstore-suite.ts',
      ].includes(exampleFileName(block) ?? ''),
    )
    .map((block) => {
      if (exampleFileName(block) !== 'vitest.petstore-suite.ts') return block;
      const text = block.text.replace(
        /^ {2}expectInterfaceCoverage\(coverage, \{\n {4}require: \[[^\]]*\],\n {2}\}\);$/m,
        requirement ?? '',
      );
      expect(text).not.toBe(block.text);
      return { ...block, text };
    });
  expect(shared).toHaveLength(4);
  app = await createConsumerApp(guide, shared, [playwrightRecipe, storybookRecipe]);
}, 420_000);

afterAll(() => app?.remove());

/** Runs a command in the app, never throwing. */
function inApp(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd: app.dir,
    encoding: 'utf8',
    env: { ...app.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 180_000,
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

test("the guide's commands install the tarball without an install-scripts warning, and nothing into public/", () => {
  expect(app.setupOutput).not.toMatch(/install-scripts/);
  // The recipes' packages may have install scripts of their own (esbuild); the fake has none.
  expect(app.recipesOutput).not.toMatch(/install-scripts\s+petstore-fake/);
  expect(app.setupOutput).toMatch(/create-vite v9\.3\.0/); // the pinned template, from npm
  // msw's Vite plugin serves the worker script: no copy to keep in step with msw.
  expect(existsSync(join(app.dir, 'public', 'mockServiceWorker.js'))).toBe(false);
  const manifest = JSON.parse(readFileSync(join(app.dir, 'package.json'), 'utf8'));
  expect(manifest.msw).toBeUndefined();
  expect(manifest.devDependencies['petstore-fake']).toMatch(/^file:.*petstore-fake-0\.1\.0\.tgz$/);
}, 180_000);

test("the app's vitest, configured in vite.config.ts, passes the guide's component tests and writes the suite's pact", () => {
  const tests = readFileSync(join(app.dir, 'src', 'PetList.test.tsx'), 'utf8');
  const count = tests.match(/^test\(/gm)?.length ?? 0;
  expect(count).toBe(3);
  expect(existsSync(join(app.dir, 'vitest.config.ts'))).toBe(false); // vite.config.ts is the one
  // The Playwright recipe's e2e/*.spec.ts are there too: vitest must leave them to Playwright.
  expect(existsSync(join(app.dir, 'e2e', 'worker.spec.ts'))).toBe(true);
  const run = inApp('npx', ['vitest', 'run']);
  expect(run.out).toMatch(/Test Files\s+1 passed \(1\)/);
  expect(run.out).toMatch(new RegExp(`Tests\\s+${count} passed \\(${count}\\)`));
  expect(run.code).toBe(0);
  // The pact and coverage setup, merged into vite.config.ts, wrote the suite's outputs.
  const pact = JSON.parse(readFileSync(join(app.dir, 'pacts', 'web-app-petstore.json'), 'utf8'));
  expect(pact.interactions.map((each: { description: string }) => each.description)).toContain(
    'listPets 200: GET /pets?limit (a key on the business plan, pets exist)',
  );
  expect(readFileSync(join(app.dir, 'interface-coverage.md'), 'utf8')).toMatch(
    /^\| `listPets 200` [^|]+\| exercised \|/m,
  );
}, 180_000);

test("create-vite's tsconfigs check the setup file, the tests and vite.config.ts", () => {
  const listed = (tsconfig: string) => {
    const run = inApp('npx', ['tsc', '-p', tsconfig, '--listFilesOnly']);
    expect(run.code, run.out).toBe(0);
    return run.out.split('\n').map((file) => file.replace(`${app.dir}/`, ''));
  };
  expect(listed('tsconfig.app.json')).toEqual(
    expect.arrayContaining([
      'src/test/setup.ts',
      'src/mocks/petstore.ts',
      'src/PetList.test.tsx',
      'src/PetList.tsx',
      'src/main.tsx',
      'src/msw.d.ts',
    ]),
  );
  expect(listed('tsconfig.node.json')).toContain('vite.config.ts');
}, 180_000);

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(js|html|css|svg)$/.test(file))
    .map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));
}

/** What only the fake or msw would bring into a bundle. */
const fakeOrMsw =
  /startFakeWorker|createBrowserFake|mockServiceWorker|\[MSW\]|X-RateLimit-Remaining|petstore-fake-panel/;

test('npm run build type-checks with tsc -b and ships neither the fake, nor msw, nor mockServiceWorker.js', () => {
  const build = inApp('npm', ['run', 'build']);
  expect(build.code, build.out).toBe(0);
  expect(build.out).toMatch(/tsc -b && vite build/);
  const production = filesUnder(join(app.dir, 'dist'));
  expect(production.map(({ file }) => file)).toEqual(
    expect.arrayContaining(['index.html', 'favicon.svg']), // public/ is still copied
  );
  expect(existsSync(join(app.dir, 'dist', 'mockServiceWorker.js'))).toBe(false);
  expect(production.filter(({ text }) => fakeOrMsw.test(text)).map(({ file }) => file)).toEqual([]);
  expect(production.some(({ text }) => text.includes('the API answered'))).toBe(true); // PetList
  // The same check finds the fake where it is: a development build holds it.
  // (Vite's build takes import.meta.env.DEV from NODE_ENV, not from --mode.)
  const development = inApp(
    'npx',
    ['vite', 'build', '--mode', 'development', '--outDir', 'dist-dev'],
    { NODE_ENV: 'development' },
  );
  expect(development.code, development.out).toBe(0);
  const chunks = filesUnder(join(app.dir, 'dist-dev')).filter(({ text }) => fakeOrMsw.test(text));
  expect(chunks.length).toBeGreaterThan(0);
}, 180_000);

/**
 * Starts a command in the app in its own process group; resolves once its output matches, with
 * the process and what it has printed so far.
 */
async function startInApp(
  args: readonly string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn('npm', args, {
    cwd: app.dir,
    env: app.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  for (let waited = 0; !ready.test(output); waited += 100) {
    if (child.exitCode !== null || waited > 60_000) {
      stopGroup(child);
      throw new Error(`npm ${args.join(' ')} did not print ${ready}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output };
}

/** Stops a process group started by startInApp. */
function stopGroup(child: ChildProcess): void {
  if (child.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** The seed's newest five pets, as the fake lists them by default (newest first, docs/fake.md). */
const newestFive = pets
  .slice(-5)
  .reverse()
  .map((pet) => pet.name);

/** The fake of the guide's `src/main.tsx`, as a page's script reaches it (`window.fake`). */
interface PageFake {
  control: {
    freezeTime(frozen: boolean): Promise<unknown>;
    setTime(epochMs: number): Promise<unknown>;
    advanceTime(seconds: number): Promise<unknown>;
    keys(): Promise<{ id: string; usage: { minute: number }; bannedUntil: string | null }[]>;
  };
}

/** Seconds in one of the panel's countdowns (`4 min 59 s`, `42 s`). */
function countdown(text: string | null): number {
  const match = /^(?:(\d+) min )?(\d+) s$/.exec(text ?? '');
  if (match === null) throw new Error(`the panel shows no countdown but "${text}"`);
  return Number(match[1] ?? 0) * 60 + Number(match[2]);
}

/** `expect.poll` with time for the panel's next reading (once a second). */
function eventually<T>(read: () => Promise<T>) {
  return expect.poll(read, { timeout: 10_000, interval: 200 });
}

test('npm run dev in headless Chromium shows the newest five pets, a created pet on top after a reload in both tabs, the panel live in both tabs with a ban lifted from it, and 100 reloads at one a second without a 429', async () => {
  const port = await freePort();
  const { child: dev, output } = await startInApp(
    ['run', 'dev', '--', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
    /Local:/,
  );
  const browser = await chromium.launch({
    executablePath: chromiumPath('consumer app test'),
    args: chromiumArgs(),
  });
  try {
    // One browser profile: the tabs share one fake, as a developer's tabs do.
    const tabs = await browser.newContext();
    const page = await tabs.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    const answered: { fromWorker: boolean; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith('http://127.0.0.1:4010/v1/pets'))
        answered.push({ fromWorker: response.fromServiceWorker(), status: response.status() });
    });
    await page.goto(`http://127.0.0.1:${port}/`);
    const items = page.locator('ul[aria-label="pets"] li');
    await items.first().waitFor({ timeout: 60_000 });
    expect(await items.allTextContents()).toEqual(newestFive);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((each) => each.fromWorker)).toBe(true);
    expect(pageErrors).toEqual([]);
    // The guide's optimizeDeps spares the first page load a reload (and its failed imports).
    expect(output()).not.toMatch(/optimized dependencies changed/);

    // A pet the app creates is on its next list, in this tab and another.
    const created = await page.evaluate(async () => {
      const res = await fetch('http://127.0.0.1:4010/v1/pets', {
        method: 'POST',
        headers: { Authorization: 'Bearer business-demo-key', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Made in the app', categoryId: 2 }),
      });
      return res.status;
    });
    expect(created).toBe(201);
    const second = await tabs.newPage();
    second.on('pageerror', (error) => pageErrors.push(String(error)));
    for (const tab of [page, second]) {
      await (tab === page ? tab.reload() : tab.goto(`http://127.0.0.1:${port}/`));
      const listed = tab.locator('ul[aria-label="pets"] li');
      await listed.first().waitFor({ timeout: 60_000 });
      expect(await listed.allTextContents()).toEqual([
        'Made in the app',
        ...newestFive.slice(0, 4),
      ]);
    }
    // The guide's showPanel(fake), in both tabs: the key PetList used, and the countdown to its
    // window's reset running in both (the fake's clock is real time here).
    for (const tab of [page, second]) {
      const reset = tab.locator('petstore-fake-panel tr[data-key] .reset').first();
      await reset.waitFor({ timeout: 15_000 });
      const start = countdown(await reset.textContent());
      await eventually(async () => countdown(await reset.textContent())).not.toBe(start);
    }
    // A ban earned in the first tab shows in both panels; Lift in the second clears it.
    const codes = await page.evaluate(async () => {
      const { fake } = window as unknown as {
        fake: { control: { updateKey(id: string, change: object): Promise<unknown> } };
      };
      await fake.control.updateKey('demo-free', { limits: { perMinute: 1, perDay: 100 } });
      const seen: string[] = [];
      // 429s sent without waiting: the fifth early one bans the key (more if a minute rolls over).
      while (seen.length < 12 && seen.at(-1) !== 'temporarily_banned') {
        const res = await fetch('http://127.0.0.1:4010/v1/pets?limit=1', {
          headers: { Authorization: 'Bearer free-demo-key' },
        });
        seen.push(res.ok ? String(res.status) : ((await res.json()) as { code: string }).code);
      }
      return seen;
    });
    expect(codes.at(-1)).toBe('temporarily_banned');
    const ban = (tab: typeof page) =>
      tab.locator('petstore-fake-panel tr[data-key="demo-free"] .ban-text');
    for (const tab of [page, second])
      await eventually(async () => countdown(await ban(tab).textContent())).toBeGreaterThan(280);
    await second.locator('petstore-fake-panel tr[data-key="demo-free"] button.lift').click();
    for (const tab of [page, second]) await eventually(() => ban(tab).textContent()).toBe('no');
    const after = await page.evaluate(async () => {
      const res = await fetch('http://127.0.0.1:4010/v1/pets?limit=1', {
        headers: { Authorization: 'Bearer free-demo-key' },
      });
      return res.status;
    });
    expect(after).toBe(200);
    await second.close();

    // A day of reloads on the guide's key earns no 429. 100 reloads, one a
    // second on the fake's clock (frozen at the start of a minute and moved 1 s a reload, so the
    // test does not wait 100 s): StrictMode's two calls a load are 200 calls in 100 s, more than
    // the Free plan's 60 a minute (docs/fake.md, Keys and plans) but within the guide's key's.
    await page.evaluate(
      async (start) => {
        const { fake } = window as unknown as { fake: PageFake };
        await fake.control.freezeTime(true);
        await fake.control.setTime(start);
      },
      Math.ceil(Date.now() / 60_000) * 60_000,
    );
    answered.length = 0;
    for (let reload = 0; reload < 100; reload += 1) {
      await page.reload();
      await items.first().waitFor({ timeout: 30_000 });
      await page.waitForFunction(() => 'fake' in window);
      await page.evaluate(async () => {
        const { fake } = window as unknown as { fake: PageFake };
        await fake.control.advanceTime(1);
      });
    }
    expect(answered.length).toBeGreaterThanOrEqual(200); // StrictMode: two calls a load
    expect(answered.filter((each) => each.status !== 200)).toEqual([]);
    const business = (
      await page.evaluate(async () => {
        const { fake } = window as unknown as { fake: PageFake };
        return fake.control.keys();
      })
    ).find((key) => key.id === 'demo-business');
    expect(business?.bannedUntil).toBeNull();
    expect(pageErrors).toEqual([]);
  } finally {
    await browser.close();
    stopGroup(dev);
  }
}, 300_000);

test('Playwright runs the recipe: the built app against the fake as its webServer, and the worker in the dev app', async () => {
  const specs = ['http-fake', 'worker'].map((name) =>
    readFileSync(join(app.dir, 'e2e', `${name}.spec.ts`), 'utf8'),
  );
  const count = specs.join('\n').match(/^test\(/gm)?.length ?? 0;
  expect(count).toBe(4);
  const [fakePort, previewPort, devPort] = [await freePort(), await freePort(), await freePort()];
  const run = inApp('npx', ['playwright', 'test', '--reporter=line'], {
    CI: 'true',
    FAKE_PORT: String(fakePort),
    PREVIEW_PORT: String(previewPort),
    DEV_PORT: String(devPort),
    CHROMIUM_PATH: chromiumPath('consumer app test'),
  });
  expect(run.out).toMatch(new RegExp(`\\b${count} passed\\b`));
  expect(run.out).not.toMatch(/failed|flaky|skipped/);
  expect(run.code).toBe(0);
}, 240_000);

test('Storybook builds the stories, and in Chromium they render through fake.handlers in msw-storybook-addon', async () => {
  const build = inApp('npx', ['storybook', 'build', '--quiet', '-o', 'storybook-static'], {
    STORYBOOK_DISABLE_TELEMETRY: '1',
  });
  expect(build.code, build.out).toBe(0);
  expect(existsSync(join(app.dir, 'storybook-static', 'mockServiceWorker.js'))).toBe(true);
  const port = await freePort();
  const { child: server } = await startInApp(
    [
      'exec',
      '--',
      'vite',
      'preview',
      '--outDir',
      'storybook-static',
      '--port',
      String(port),
      '--strictPort',
      '--host',
      '127.0.0.1',
    ],
    /Local:/,
  );
  const browser = await chromium.launch({
    executablePath: chromiumPath('consumer app test'),
    args: chromiumArgs(),
  });
  try {
    const page = await browser.newPage();
    const story = async (id: string) => {
      await page.goto(`http://127.0.0.1:${port}/iframe.html?id=${id}&viewMode=story`);
      const root = page.locator('#storybook-root');
      await root
        .locator('ul[aria-label="pets"] li, [role="alert"]')
        .first()
        .waitFor({ timeout: 60_000 });
      const names = await root.locator('li').allTextContents();
      return names.length > 0 ? names.join('\n') : ((await root.textContent()) ?? '');
    };
    // The preview's showPanel(fake): beside each story, the request the story made.
    const lastRequest = () => page.locator('petstore-fake-panel .recent tr').first().textContent();
    expect((await story('petlist--from-the-fake')).split('\n')).toEqual(newestFive);
    await eventually(lastRequest).toMatch(/200GET \/v1\/pets\?limit=5/);
    expect(await page.locator('petstore-fake-panel tr[data-key]').count()).toBe(1);
    expect(await story('petlist--when-the-api-fails')).toBe('No pets: the API answered 503');
    await eventually(lastRequest).toMatch(/503GET \/v1\/pets\?limit=5service_unavailable/);
  } finally {
    await browser.close();
    stopGroup(server);
  }
}, 240_000);
