/**
 * A state file for the fake (`npm start -- --state-file <path>`): one JSON line with a full
 * snapshot, then one line per created pet.
 *
 * - A pet is written before it is acknowledged or even visible: appends are synchronous, and a
 *   failed append is undone (the file cut back to its last good length) and refused, so the
 *   create answers an Error instead of a 201 a restart would lose.
 * - Every append starts on a fresh line: it is written at the end of the last complete line, so a
 *   line cut short by a crash or a full disk is overwritten, never glued onto.
 * - On start, only a cut-short last line (never acknowledged) is dropped. Anything else that is
 *   not a valid line stops the start with the file and line named, and the file is left as it is.
 * - With `fsync`, each write is flushed to the disk before it is acknowledged, so pets survive
 *   the machine going down, not only the process.
 */
import * as nodeFs from 'node:fs';
import { dirname } from 'node:path';
import { isJsonObject, parseJson, stringifyJson } from '../../base/contract/lossless-json.ts';
import { checkPet, describeIssues } from '../../base/contract/schemas.ts';
import type { Pet } from '../../base/contract/types.ts';
import {
  maxPetId,
  type StorePersistence,
  type StoreSnapshot,
  snapshotProblem,
} from '../../pipeline/persistence.ts';

/** The file-system calls a state file makes: tests pass a faulty one to simulate a full disk. */
export type StateFileSystem = Pick<
  typeof nodeFs,
  | 'existsSync'
  | 'readFileSync'
  | 'openSync'
  | 'writeSync'
  | 'fsyncSync'
  | 'ftruncateSync'
  | 'closeSync'
  | 'renameSync'
  | 'rmSync'
>;

/** Options of a state file. */
export interface StateFileOptions {
  /** Flush every write to the disk before acknowledging it (slower; see README). Default false. */
  readonly fsync?: boolean;
  /** The file system to use. Default `node:fs`. */
  readonly fs?: StateFileSystem;
}

/** A state file the fake cannot start from: names the file and line, and says what to do. */
export class StateFileError extends Error {
  override readonly name = 'StateFileError';

  constructor(path: string, line: number, problem: string) {
    super(
      `petstore-fake: state file ${path}, line ${line}: ${problem}. The file was left as it is: fix or delete that line, or move the file away.`,
    );
  }
}

function createdProblem(value: unknown, seen: ReadonlySet<number>): string | undefined {
  const record = value as { created?: unknown };
  if (!isJsonObject(value) || record.created === undefined || Object.keys(value).length !== 1)
    return 'expected a {"created": <pet>} line';
  const issues = checkPet(record.created);
  if (issues.length > 0) return `not a pet: ${describeIssues(issues)}`;
  const id = (record.created as Pet).id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1 || id > maxPetId)
    return `pet id must be an integer from 1 to ${maxPetId}, got ${String(id)}`;
  if (seen.has(id)) return `pet id ${id} appears twice`;
  return undefined;
}

/** Opens (or prepares to create) a state file at `path`. */
export function createStateFile(path: string, options: StateFileOptions = {}): StorePersistence {
  return new StateFile(path, options.fs ?? nodeFs, options.fsync ?? false);
}

/** A state file's lines read into a snapshot: the pets so far, their ids and the next id. */
interface LoadedPets {
  readonly pets: Pet[];
  readonly seen: Set<number>;
  nextId: number;
}

/** The snapshot line's pets, which the created lines add to. */
function loadedPets(snapshot: StoreSnapshot): LoadedPets {
  const pets = [...snapshot.pets];
  return { pets, seen: new Set(pets.map((pet) => Number(pet.id))), nextId: snapshot.nextId };
}

/** Adds a line that passed `createdProblem` to what is loaded. */
function addCreated(loaded: LoadedPets, value: unknown): void {
  const created = (value as { created: Pet }).created;
  loaded.pets.push(created);
  loaded.seen.add(created.id as number);
  loaded.nextId = Math.max(loaded.nextId, (created.id as number) + 1);
}

class StateFile implements StorePersistence {
  // Bytes of complete, acknowledged lines: the next append is written here.
  #goodLength = 0;
  // A failed append may have left bytes past goodLength that could not be cut yet.
  #tornTail = false;

  readonly #path: string;
  readonly #fs: StateFileSystem;
  readonly #fsync: boolean;

  constructor(path: string, fs: StateFileSystem, fsync: boolean) {
    this.#path = path;
    this.#fs = fs;
    this.#fsync = fsync;
  }

  load(): StoreSnapshot | undefined {
    const fs = this.#fs;
    const path = this.#path;
    if (!fs.existsSync(path)) return undefined;
    const bytes = fs.readFileSync(path);
    if (bytes.byteLength === 0) return undefined;
    const complete = bytes.toString('utf8').split('\n');
    // Text after the last newline: '' when the file ends with one, else a last line cut short.
    const tail = complete.pop() ?? '';
    if (complete.length === 0) throw new StateFileError(path, 1, 'the snapshot line is cut short');
    const loaded = loadedPets(this.#snapshotLine(complete[0] as string));
    for (const [index, line] of complete.entries()) {
      if (index === 0) continue;
      const value = this.#parseLine(line, index + 1);
      const lineProblem = createdProblem(value, loaded.seen);
      if (lineProblem !== undefined) throw new StateFileError(path, index + 1, lineProblem);
      addCreated(loaded, value);
    }
    this.#goodLength = bytes.byteLength - Buffer.byteLength(tail);
    if (tail !== '') this.#settleTail(tail, bytes.byteLength, loaded);
    return { pets: loaded.pets, nextId: loaded.nextId };
  }

  appendCreated(pet: Pet): void {
    const line = Buffer.from(`${stringifyJson({ created: pet })}\n`);
    this.#withFile('r+', (fd) => {
      try {
        if (this.#tornTail) {
          this.#fs.ftruncateSync(fd, this.#goodLength);
          this.#tornTail = false;
        }
        this.#writeAll(fd, line, this.#goodLength);
        if (this.#fsync) this.#fs.fsyncSync(fd);
      } catch (error) {
        // Undo what part of the line got written; if even that fails, the next append retries.
        this.#tornTail = true;
        try {
          this.#fs.ftruncateSync(fd, this.#goodLength);
          this.#tornTail = false;
        } catch {
          // Left for the next append to cut; this one is refused either way.
        }
        throw error;
      }
    });
    this.#goodLength += line.byteLength;
  }

  replaceAll(snapshot: StoreSnapshot): void {
    const fs = this.#fs;
    const path = this.#path;
    // Write aside and rename, so a crash leaves either the old file or the new one whole.
    const temporary = `${path}.tmp`;
    const text = Buffer.from(`${stringifyJson({ snapshot })}\n`);
    try {
      this.#withFile(
        'w',
        (fd) => {
          this.#writeAll(fd, text, null);
          if (this.#fsync) fs.fsyncSync(fd);
        },
        temporary,
      );
      fs.renameSync(temporary, path);
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      throw error;
    }
    // The rename itself lives in the directory: flush it too.
    if (this.#fsync) this.#withFile('r', (dir) => fs.fsyncSync(dir), dirname(path));
    this.#goodLength = text.byteLength;
    this.#tornTail = false;
  }

  /** The first line's snapshot, or a StateFileError saying why it is not one. */
  #snapshotLine(line: string): StoreSnapshot {
    const head = this.#parseLine(line, 1) as { snapshot?: unknown } | null;
    const problem =
      head === null || typeof head !== 'object' || !('snapshot' in head)
        ? 'expected a {"snapshot": ...} line: this is not a fake state file'
        : snapshotProblem(head.snapshot);
    if (problem !== undefined) throw new StateFileError(this.#path, 1, problem);
    return (head as { snapshot: StoreSnapshot }).snapshot;
  }

  #parseLine(line: string, number: number): unknown {
    try {
      return parseJson(line);
    } catch (error) {
      throw new StateFileError(this.#path, number, `not JSON (${(error as Error).message})`);
    }
  }

  /** A last line without its newline (the file `size` bytes long): kept when whole, else cut off. */
  #settleTail(tail: string, size: number, loaded: LoadedPets): void {
    let value: unknown;
    try {
      value = parseJson(tail);
    } catch {
      value = undefined;
    }
    if (value !== undefined && createdProblem(value, loaded.seen) === undefined) {
      // Whole but unterminated: keep it, and end its line so the next append starts fresh.
      addCreated(loaded, value);
      this.#withFile('r+', (fd) => this.#writeAll(fd, Buffer.from('\n'), size));
      this.#goodLength = size + 1;
    } else {
      // Cut short mid-write: it was never acknowledged. Cut it off so nothing is glued onto it.
      this.#withFile('r+', (fd) => this.#fs.ftruncateSync(fd, this.#goodLength));
    }
  }

  #writeAll(fd: number, bytes: Uint8Array, position: number | null): void {
    for (let done = 0; done < bytes.byteLength; ) {
      done += this.#fs.writeSync(
        fd,
        bytes,
        done,
        bytes.byteLength - done,
        position === null ? null : position + done,
      );
    }
  }

  /** Opens the state file (or `path`) with `flags` for `use`, and closes it whatever happens. */
  #withFile<T>(flags: string, use: (fd: number) => T, path = this.#path): T {
    const fd = this.#fs.openSync(path, flags);
    try {
      return use(fd);
    } finally {
      this.#fs.closeSync(fd);
    }
  }
}
