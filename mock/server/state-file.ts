/**
 * A state file for the fake (`npm start -- --state-file <path>`): one JSON line with a full
 * snapshot, then one line per created pet. Appends are synchronous, so a pet acknowledged with
 * 201 is in the file before the response leaves; a line cut short by a crash is one that was
 * never acknowledged, and is skipped on load. Survives the process dying, not the machine.
 */
import { appendFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseJson, stringifyJson } from '../contract/lossless-json.ts';
import type { Pet } from '../contract/types.ts';
import type { StorePersistence } from '../store/persistence.ts';
import { assertSnapshot, type StoreSnapshot } from '../store/pet-store.ts';

/** Opens (or prepares to create) a state file at `path`. */
export function createStateFile(path: string): StorePersistence {
  return {
    load() {
      if (!existsSync(path)) return undefined;
      const lines = readFileSync(path, 'utf8').split('\n');
      const first = lines[0] ?? '';
      let snapshot: StoreSnapshot;
      try {
        snapshot = (parseJson(first) as { snapshot: StoreSnapshot }).snapshot;
        assertSnapshot(snapshot);
      } catch (error) {
        throw new Error(
          `petstore-fake: state file ${path} is not a fake state file (${(error as Error).message}); move it away or pick another path`,
        );
      }
      const pets = [...snapshot.pets];
      let nextId = snapshot.nextId;
      for (const line of lines.slice(1)) {
        if (line.trim() === '') continue;
        let created: Pet;
        try {
          created = (parseJson(line) as { created: Pet }).created;
        } catch {
          continue; // cut short by a crash mid-write: never acknowledged
        }
        pets.push(created);
        nextId = Math.max(nextId, Number(created.id) + 1);
      }
      return { pets, nextId };
    },
    appendCreated(pet) {
      appendFileSync(path, `${stringifyJson({ created: pet })}\n`);
    },
    replaceAll(snapshot) {
      // Write aside and rename, so a crash leaves either the old file or the new one whole.
      const temporary = `${path}.tmp`;
      writeFileSync(temporary, `${stringifyJson({ snapshot })}\n`);
      renameSync(temporary, path);
    },
  };
}
