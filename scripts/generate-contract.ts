/**
 * Turns openapi/petstore.yaml into mock/base/contract/openapi.generated.ts: the same document with
 * every internal `$ref` inlined, as a `const` that the browser, Node and the type system can all
 * read without a YAML parser. `npm test` fails when the generated file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = new URL('../', import.meta.url);
export const yamlPath = fileURLToPath(new URL('openapi/petstore.yaml', root));
export const generatedPath = fileURLToPath(
  new URL('mock/base/contract/openapi.generated.ts', root),
);

/** Resolves `#/a/b` pointers against the document, recursively; the contract has no cycles. */
function inlineRefs(node: unknown, document: unknown, trail: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineRefs(item, document, trail));
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith('#/'))
      throw new Error(`generate-contract: only internal $refs are supported, got ${ref}`);
    if (trail.includes(ref))
      throw new Error(`generate-contract: cyclic $ref ${[...trail, ref].join(' -> ')}`);
    let target: unknown = document;
    for (const part of ref.slice(2).split('/')) {
      target = (target as Record<string, unknown> | undefined)?.[
        part.replaceAll('~1', '/').replaceAll('~0', '~')
      ];
    }
    if (target === undefined) throw new Error(`generate-contract: unresolved $ref ${ref}`);
    return inlineRefs(target, document, [...trail, ref]);
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, inlineRefs(value, document, trail)]),
  );
}

/** Renders the generated module's source text from the YAML document's text. */
export function renderContractModule(yamlText: string): string {
  const document: unknown = parse(yamlText);
  const inlined = inlineRefs(document, document);
  return [
    '// Generated from openapi/petstore.yaml by scripts/generate-contract.ts: do not edit.',
    '// Every internal $ref is inlined. Regenerate with `npm run generate`.',
    `export const openapiDocument = ${JSON.stringify(inlined, null, 2)} as const;`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(generatedPath, renderContractModule(readFileSync(yamlPath, 'utf8')));
  console.log(`generate-contract: wrote ${generatedPath}`);
}
