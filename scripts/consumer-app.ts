/**
 * A create-vite React + TypeScript app that follows the README's "In your app" guide as written:
 * its shell block run by bash (create-vite from the npm registry, pinned in the README; the
 * package's tarball at its real path; packages from the npm cache where it has them), then every
 * file the guide shows written where its first line says, and the two lines it adds to
 * create-vite's `src/App.tsx`. consumer-app.test.ts runs the app's own commands there.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packPackage, projectEnvironment } from './consumer-project.ts';
import { exampleFileName, type FencedBlock, fencedBlocks } from './markdown-blocks.ts';

/** The placeholder the README's install line has for the tarball. */
const tarballPlaceholder = '/path/to/petstore-fake-0.1.0.tgz';

/** The app made from the guide: where it is, what its setup printed, and how to remove it. */
export interface ConsumerApp {
  /** The app's folder (create-vite's `my-app`). */
  readonly dir: string;
  /** Everything the guide's shell commands printed. */
  readonly setupOutput: string;
  /** Everything the recipes' shell commands printed. */
  readonly recipesOutput: string;
  /** The environment the app's commands run in: this Node first on PATH, then the app's bins. */
  readonly env: NodeJS.ProcessEnv;
  /** Removes the app and the tarball. */
  remove(): void;
}

/**
 * The environment of a command in `dir`: this Node (24, from the `node` devDependency) first on
 * PATH as an npm script's would be, no variables of the vitest running this test (the app's
 * vitest would take them as its own), no colours, and npm from its cache where it can. No `CI`
 * and no `npm_config_yes` either: `npm create` asks before it downloads create-vite, and with no
 * terminal to answer it exits 1 ("canceled due to missing packages and no YES option") unless
 * one of them says yes, so the guide's own `--yes` is what must answer.
 */
export function appEnvironment(dir: string): NodeJS.ProcessEnv {
  return projectEnvironment(dir, /^NODE_ENV$|^CI$|^npm_config_yes$/i);
}

/** Puts the guide's two lines into create-vite's App.tsx: the import, and `<PetList />` first. */
function addToApp(appTsx: string, block: FencedBlock): string {
  const importLine = block.text.split('\n').find((line) => line.startsWith('import '));
  const element = block.text.split('\n').find((line) => line.trim() === '<PetList />');
  const lines = appTsx.split('\n');
  const lastImport = lines.findLastIndex((line) => line.startsWith('import '));
  const fragment = lines.findIndex((line) => line.trim() === '<>');
  if (!importLine || !element || lastImport === -1 || fragment === -1)
    throw new Error("consumer app: the guide's App.tsx lines or create-vite's App.tsx changed");
  lines.splice(fragment + 1, 0, element);
  lines.splice(lastImport + 1, 0, importLine);
  return lines.join('\n');
}

/**
 * Makes the app from `guide` (the README's "In your app" section), `sharedFiles` (files the
 * guide takes from earlier sections, such as `src/mocks/petstore.ts`) and `recipes` (sections
 * whose commands run in the app after the guide's, and whose files it writes too).
 */
export async function createConsumerApp(
  guide: string,
  sharedFiles: readonly FencedBlock[],
  recipes: readonly string[],
): Promise<ConsumerApp> {
  const work = mkdtempSync(join(tmpdir(), 'petstore-app-'));
  const remove = () => rmSync(work, { recursive: true, force: true });
  try {
    const packed = await packPackage(work);
    const blocks = fencedBlocks(guide);
    const commands = blocks.find((block) => block.lang === 'sh')?.text ?? '';
    if (!commands.includes(tarballPlaceholder))
      throw new Error(`consumer app: the guide's commands no longer install ${tarballPlaceholder}`);
    const cd = /^cd (\S+)$/m.exec(commands)?.[1];
    if (!cd) throw new Error("consumer app: the guide's commands no longer cd into the app");
    const dir = join(work, cd);
    const setup = spawnSync(
      'bash',
      ['-e', '-c', commands.replaceAll(tarballPlaceholder, join(work, packed.filename))],
      {
        cwd: work,
        encoding: 'utf8',
        env: appEnvironment(dir),
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 300_000,
      },
    );
    const setupOutput = `${setup.stdout}${setup.stderr}`;
    let recipesOutput = '';
    if (setup.status !== 0)
      throw new Error(`consumer app: the guide's commands exited ${setup.status}:\n${setupOutput}`);
    const recipeBlocks = recipes.flatMap((recipe) => fencedBlocks(recipe));
    for (const block of recipeBlocks.filter((each) => each.lang === 'sh')) {
      const step = spawnSync('bash', ['-e', '-c', block.text], {
        cwd: dir,
        encoding: 'utf8',
        env: appEnvironment(dir),
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 300_000,
      });
      recipesOutput += `${step.stdout}${step.stderr}`;
      if (step.status !== 0)
        throw new Error(`consumer app: \`${block.text}\` exited ${step.status}:\n${recipesOutput}`);
    }
    for (const block of [...sharedFiles, ...blocks, ...recipeBlocks]) {
      const file = exampleFileName(block);
      if (file === undefined) continue;
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), `${block.text}\n`);
    }
    const appLines = blocks.find(
      (block) => !exampleFileName(block) && /<PetList \/>/.test(block.text),
    );
    if (!appLines) throw new Error("consumer app: the guide no longer shows App.tsx's new lines");
    const appTsx = join(dir, 'src', 'App.tsx');
    writeFileSync(appTsx, addToApp(readFileSync(appTsx, 'utf8'), appLines));
    return { dir, setupOutput, recipesOutput, env: appEnvironment(dir), remove };
  } catch (error) {
    remove();
    throw error;
  }
}
