/**
 * Whether a file can be written at a path, checked before a command starts its work, so a typo
 * in an output flag costs nothing: not a directory, in a folder that exists, with permission.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

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
