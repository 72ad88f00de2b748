/**
 * Output files: whether one can be written at a path, checked before a command starts its work,
 * so a typo in an output flag costs nothing (not a directory, in a folder that exists, with
 * permission); and writing one whole or not at all, so a process killed while it writes leaves
 * the file it had before, never a torn one.
 */
import { accessSync, constants, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Why a file cannot be written at `path`, in a few words, or undefined when it can. */
export function outputPathProblem(path: string): string | undefined {
  if (path === '') return 'the path is empty';
  const absolute = resolve(path);
  let exists = false;
  try {
    if (statSync(absolute).isDirectory()) return 'it is a directory';
    exists = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
  const folder = dirname(absolute);
  if (!exists) {
    try {
      if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
    } catch {
      return `the folder ${folder} does not exist`;
    }
  }
  try {
    accessSync(exists ? absolute : folder, constants.W_OK);
  } catch {
    return exists ? 'no permission to write it' : `no permission to write in ${folder}`;
  }
  return undefined;
}

/**
 * Writes `text` to `path` atomically: into a temporary file beside it, then renamed over it (a
 * rename within one folder replaces the file in one step on POSIX). Throws what the write threw,
 * after removing the temporary file.
 */
export function writeOutputFile(path: string, text: string): void {
  const absolute = resolve(path);
  const temporary = join(dirname(absolute), `.${basename(absolute)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, absolute);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
