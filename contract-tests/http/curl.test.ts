import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { toCurl } from './curl.ts';
import { keyPlaceholder, type RequestSpec } from './exchange.ts';

const spec = (fields: Partial<RequestSpec>): RequestSpec => ({
  method: 'GET',
  path: '/pets',
  auth: 'key',
  operationId: 'listPets',
  ...fields,
});

test('writes the key as $PETSTORE_API_KEY inside double quotes, so the shell expands it', () => {
  expect(toCurl({ spec: spec({}), url: 'http://h/v1/pets?limit=5' })).toBe(
    `curl -sS -i 'http://h/v1/pets?limit=5' -H "Authorization: Bearer $PETSTORE_API_KEY"`,
  );
});

test('escapes what the shell would expand in generated headers, but keeps the key variable', () => {
  const line = toCurl({
    spec: spec({ auth: { header: `Basic ${keyPlaceholder} $HOME \`x\` "q"` } }),
    url: 'http://h/v1/pets',
  });
  expect(line).toContain(`-H "Authorization: Basic $PETSTORE_API_KEY \\$HOME \\\`x\\\` \\"q\\""`);
});

test('sends bodies verbatim in single quotes, quotes escaped', () => {
  const line = toCurl({
    spec: spec({
      method: 'POST',
      auth: 'none',
      body: `{"name":"O'Malley"}`,
      operationId: 'createPet',
    }),
    url: 'http://h/v1/pets',
  });
  expect(line).toBe(
    `curl -sS -i -X POST 'http://h/v1/pets' -H 'Content-Type: application/json' --data-raw '{"name":"O'\\''Malley"}'`,
  );
});

test('writes a long run of padding as a shell expression that bash expands back to the same bytes', () => {
  const body = `{"contract-padding":"${'x'.repeat(4096)}","q":"$HOME \`x\` \\"}`;
  const url = `http://h/v1/pets?limit=20&contract-padding=${'x'.repeat(9000)}`;
  const line = toCurl({
    spec: spec({ method: 'POST', auth: 'none', body, operationId: 'createPet' }),
    url,
  });
  expect(line.length).toBeLessThan(300);
  const [, quotedUrl, quotedBody] =
    /-X POST (".*?") -H 'Content-Type: application\/json' --data-raw (".*")$/.exec(line) ?? [];
  const expand = (word = '') => execFileSync('bash', ['-c', `printf %s ${word}`]).toString();
  expect(expand(quotedUrl)).toBe(url);
  expect(expand(quotedBody)).toBe(body);
});
