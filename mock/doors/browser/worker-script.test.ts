/**
 * The committed worker script must be the one the installed msw ships: msw checks the script's
 * integrity at start and warns (or misbehaves) when the two drift apart.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';

it('keeps mock/doors/browser/public/mockServiceWorker.js identical to the installed msw worker', () => {
  const committed = readFileSync(new URL('./public/mockServiceWorker.js', import.meta.url));
  const shipped = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'));
  expect(
    committed.equals(shipped),
    'mockServiceWorker.js is out of step with the installed msw: run `npx msw init mock/doors/browser/public` and commit the result',
  ).toBe(true);
});
