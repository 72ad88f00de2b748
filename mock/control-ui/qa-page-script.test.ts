/**
 * The QA page's script the control surface serves is the bundle of qa-page.ts as it is now:
 * `npm run generate` (scripts/generate-qa-page.ts) rewrites it after a change to the control UI.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { qaPageModule, qaPageModulePath } from '../../scripts/generate-qa-page.ts';

test('qa-page-script.generated.ts is the bundle of the control UI as it is (npm run generate)', async () => {
  expect(readFileSync(qaPageModulePath, 'utf8')).toBe(await qaPageModule());
});
