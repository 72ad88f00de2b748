/**
 * Where the browser tests' Chromium comes from on a machine with only Node and npm: the one the
 * pinned `@sparticuz/chromium` ships inside its npm package, unpacked whole, once, and driven by
 * playwright-core. And a CHROMIUM_PATH that does not exist is one clear problem, not a crash.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, expect, test } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { chromiumArgs, findChromium } from './headless-chromium.ts';

const version = packageJson.devDependencies['@sparticuz/chromium'];
const work = mkdtempSync(join(tmpdir(), 'petstore-chromium-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('with no system Chromium, the one from npm is unpacked once, whole, and playwright-core drives it headless', async () => {
  const search = {
    env: {},
    systemChromium: '/nonexistent/chromium',
    unpackFolder: join(work, 'c'),
  };
  const first = findChromium(search);
  if (!('path' in first)) throw new Error(first.problem);
  expect(first).toEqual({
    path: join(work, 'c', 'chromium'),
    note: `Chromium: none on this system, so @sparticuz/chromium ${version} from node_modules, unpacked now to ${join(work, 'c', 'chromium')}`,
  });
  expect(readdirSync(work)).toEqual(['c']); // no partial folder left behind
  expect(findChromium(search)).toEqual({
    path: first.path,
    note: `Chromium: none on this system, so @sparticuz/chromium ${version} from node_modules, already unpacked at ${first.path}`,
  });
  const browser = await chromium.launch({ executablePath: first.path, args: chromiumArgs() });
  try {
    // The package's version numbers the Chromium major it ships (153.0.0: Chromium 153).
    expect(browser.version().split('.')[0]).toBe(version.split('.')[0]);
    const page = await browser.newPage();
    await page.setContent('<p id="answer"></p><script>answer.textContent = 6 * 7</script>');
    expect(await page.textContent('#answer')).toBe('42');
  } finally {
    await browser.close();
  }
});

test('CHROMIUM_PATH comes first, then the system Chromium; one that does not exist is a problem naming it', () => {
  expect(findChromium({ env: { CHROMIUM_PATH: '/nowhere/chrome' } })).toEqual({
    problem: 'CHROMIUM_PATH is /nowhere/chrome, which does not exist',
  });
  const present = join(work, 'present');
  writeFileSync(present, '');
  expect(findChromium({ env: { CHROMIUM_PATH: present }, systemChromium: '/bin/sh' })).toEqual({
    path: present,
    note: `Chromium: ${present} (CHROMIUM_PATH)`,
  });
  expect(findChromium({ env: {}, systemChromium: '/bin/sh' })).toEqual({
    path: '/bin/sh',
    note: "Chromium: /bin/sh (the system's)",
  });
});
