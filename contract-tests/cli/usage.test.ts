/** The harness's help is generated from its flag specs: none is left out, none listed twice. */
import { expect, test } from 'vitest';
import { cliFlags } from './options.ts';
import { usage } from './usage.ts';

test('the help lists every flag the harness takes, each once', () => {
  const text = usage('petstore-contract', 'README.md');
  for (const name of Object.keys(cliFlags))
    expect(text.match(new RegExp(`^ {2}(-h, )?--${name}\\b`, 'gm')), name).toHaveLength(1);
});
