/**
 * Ships the contract types as plain types. mock/base/contract/types.ts computes them from the OpenAPI
 * document with json-schema-to-ts, a devDependency, and tsc's declaration emit keeps
 * `FromSchema<...>`: that would make json-schema-to-ts and the whole document's type part of
 * every user's type check. So the package build (build-package.ts) has tsc print each exported
 * type as a structure, writes those into dist's types.d.ts, and fails unless each is identical
 * to the type the source computes.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const contractTypesSource = join(root, 'mock', 'base', 'contract', 'types.ts');
const contractTypesBuilt = (distDir: string) =>
  join(distDir, 'mock', 'base', 'contract', 'types.d.ts');

function run(command: string, args: readonly string[], cwd = root): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(
      `build-package: ${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`,
    );
}

/** Runs the repository's tsc on a project; throws with its output when it fails. */
export function tsc(project: string, ...options: string[]): void {
  run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', project, ...options]);
}

function writeProject(
  probeDir: string,
  name: string,
  files: readonly string[],
  options: object,
): string {
  const project = join(probeDir, name);
  writeFileSync(
    project,
    JSON.stringify({
      extends: relative(probeDir, join(root, 'tsconfig.json')),
      compilerOptions: { ...options, rootDir: relative(probeDir, root) },
      include: [],
      files,
    }),
  );
  return project;
}

/** A top-level statement of a `.d.ts` file, with the doc comment before it. */
interface Statement {
  readonly doc: string;
  readonly text: string;
}

/** Splits tsc's declaration output (one statement starts at column 0) into statements. */
function statements(declarations: string): Statement[] {
  const result: Statement[] = [];
  let doc = '';
  for (const chunk of declarations.split(
    /\n(?=\/\*\*|export |type |import |declare |interface )/,
  )) {
    const text = chunk.trim();
    if (text.startsWith('/**')) doc = `${text}\n`;
    else {
      result.push({ doc, text });
      doc = '';
    }
  }
  return result;
}

/** The union of string literals a probe printed as `{ "a": "a"; ... }`, or undefined. */
function unionOf(printed: string): string | undefined {
  const members = [...printed.matchAll(/^ {4}[^:\n]+: ("[^"\n]*");$/gm)].map((match) => match[1]);
  const lines = printed.split('\n').length;
  return members.length > 0 && members.length === lines - 2 ? members.join(' | ') : undefined;
}

/** Has tsc print each exported type of mock/base/contract/types.ts as a structure; by name. */
function expandTypes(probeDir: string, names: readonly string[]): Record<string, string> {
  const source = relative(probeDir, contractTypesSource);
  const lines = [
    `import type * as T from './${source}';`,
    // tsc prints an alias wherever the type it names comes back, so the probe builds new types:
    // a mapped type that tsc prints property by property, and for a union of strings an object
    // keyed by its members (read back into a union below).
    'declare function asObject<V>(value: V): V extends object ? { [K in keyof V]: V[K] } : never;',
    'declare function asUnion<V>(value: V): [V] extends [string] ? { [K in V]: K } : never;',
    ...names.flatMap((name) => [
      `declare const ${name}Value: T.${name};`,
      `export const ${name}__object = asObject(${name}Value);`,
      `export const ${name}__union = asUnion(${name}Value);`,
    ]),
  ];
  mkdirSync(probeDir, { recursive: true });
  writeFileSync(join(probeDir, 'probe.ts'), `${lines.join('\n')}\n`);
  const outDir = join(probeDir, 'out');
  tsc(
    writeProject(probeDir, 'tsconfig.probe.json', ['probe.ts'], {
      noEmit: false,
      emitDeclarationOnly: true,
      declaration: true,
      outDir: relative(probeDir, outDir),
    }),
  );
  const emitted = readFileSync(join(outDir, relative(root, probeDir), 'probe.d.ts'), 'utf8');
  const expanded: Record<string, string> = {};
  for (const { text } of statements(emitted)) {
    const match = /^export declare const (\w+)__(object|union): ([\s\S]*);$/.exec(text);
    const [, name, kind, type] = match ?? [];
    if (name === undefined || type === undefined || type === 'never') continue;
    const structure = kind === 'union' ? unionOf(type) : type;
    if (structure !== undefined) expanded[name] = structure.replaceAll(/\bT\./g, '');
  }
  return expanded;
}

/**
 * Rewrites dist's types.d.ts to its exported types, each written out as a structure (or left
 * as it is when it already is one, like `number | bigint`), without imports or helper types.
 * `probeDir`: an empty folder inside the repository, where tsc finds its tsconfig and types.
 */
export function inlineContractTypes(distDir: string, probeDir: string): void {
  const built = statements(readFileSync(contractTypesBuilt(distDir), 'utf8'));
  const exported = built.flatMap(({ doc, text }) => {
    const match = /^export type (\w+) = ([\s\S]*);$/.exec(text);
    return match?.[1] !== undefined && match[2] !== undefined
      ? [{ doc, name: match[1], type: match[2] }]
      : [];
  });
  const expanded = expandTypes(
    probeDir,
    exported.map(({ name }) => name),
  );
  const header = built[0]?.doc ?? '';
  const body = exported.map(({ doc, name, type }) => {
    const structure = expanded[name];
    const keep = structure === undefined;
    return `${doc}export type ${name} = ${keep ? type : structure};\n`;
  });
  writeFileSync(contractTypesBuilt(distDir), `${header}${body.join('')}export {};\n`);
  assertSameContractTypes(
    distDir,
    probeDir,
    exported.map(({ name }) => name),
  );
}

/**
 * Fails the build unless dist's types.d.ts stands alone (it is type-checked, not skipped as a
 * library file) and every type in it is identical to the one the source computes.
 */
function assertSameContractTypes(
  distDir: string,
  probeDir: string,
  names: readonly string[],
): void {
  const built = relative(probeDir, contractTypesBuilt(distDir).replace(/\.d\.ts$/, '.js'));
  const source = relative(probeDir, contractTypesSource);
  writeFileSync(
    join(probeDir, 'same.ts'),
    [
      `import type * as Built from './${built}';`,
      `import type * as Source from './${source}';`,
      'type Same<A, B> = (<V>() => V extends A ? 1 : 2) extends <V>() => V extends B ? 1 : 2 ? true : false;',
      `export const same: [${names.map((name) => `Same<Built.${name}, Source.${name}>`).join(', ')}] = [${names.map(() => 'true').join(', ')}];`,
    ].join('\n'),
  );
  tsc(
    writeProject(probeDir, 'tsconfig.same.json', ['same.ts'], {
      noEmit: true,
      skipLibCheck: false,
    }),
  );
}
