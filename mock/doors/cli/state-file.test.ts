/**
 * The state file loses no acknowledged pet: torn last lines, a disk that fills up mid-write, I/O
 * errors, corrupt lines and restarts. Faults are injected through the file-system calls the
 * state file makes, or through the store's persistence interface; pets go in over HTTP.
 */
import * as nodeFs from 'node:fs';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createFake } from '../../core/fake.ts';
import type { StorePersistence } from '../../pipeline/persistence.ts';
import { type HttpDoor, listenHttp } from '../http/http-server.ts';
import { createStateFile, StateFileError, type StateFileSystem } from './state-file.ts';

const auth = { Authorization: 'Bearer enterprise-demo-key' };
const doors: HttpDoor[] = [];
afterEach(async () => {
  await Promise.all(doors.splice(0).map((door) => door.close()));
});

function statePath(): string {
  return join(mkdtempSync(join(tmpdir(), 'petstore-state-')), 'state.jsonl');
}

/** A fake over `persistence` on a real port; returns its base URL. */
async function serve(persistence: StorePersistence): Promise<string> {
  const fake = await createFake({ seed: 'empty', stagingOrigin: false, persistence });
  const door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
  });
  doors.push(door);
  return `http://127.0.0.1:${(door.server.address() as { port: number }).port}`;
}

async function create(base: string, name: string) {
  const response = await fetch(`${base}/v1/pets`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function names(base: string): Promise<string[]> {
  const response = await fetch(`${base}/v1/pets?limit=100`, { headers: auth });
  // In id order, as the state file keeps them (the list itself is newest first).
  return ((await response.json()) as { id: number; name: string }[])
    .sort((a, b) => a.id - b.id)
    .map((pet) => pet.name);
}

/** The pets a fresh start from `path` would hold. */
function reload(path: string): string[] {
  return (createStateFile(path).load()?.pets ?? []).map((pet) => pet.name);
}

const snapshotLine = '{"snapshot":{"pets":[{"id":1,"name":"Rex","categoryId":1}],"nextId":2}}\n';
const createdLine = (id: number, name: string) =>
  `{"created":{"id":${id},"name":"${name}","categoryId":1,"status":"available"}}\n`;

test('after a torn last line, the next create starts on a fresh line and survives a restart', async () => {
  const path = statePath();
  writeFileSync(path, `${snapshotLine}${createdLine(2, 'Kept')}{"created":{"id":3,"na`);
  const base = await serve(createStateFile(path));
  expect(await names(base)).toEqual(['Rex', 'Kept']);
  const made = await create(base, 'Acknowledged');
  expect(made.status).toBe(201);
  expect(reload(path)).toEqual(['Rex', 'Kept', 'Acknowledged']);
  expect(readFileSync(path, 'utf8').endsWith(`${createdLine(3, 'Acknowledged')}`)).toBe(true);
});

test('a whole last line without its newline is kept, and the next append starts after it', async () => {
  const path = statePath();
  writeFileSync(path, `${snapshotLine}${createdLine(2, 'Whole').trimEnd()}`);
  const base = await serve(createStateFile(path));
  expect((await create(base, 'Next')).status).toBe(201);
  expect(reload(path)).toEqual(['Rex', 'Whole', 'Next']);
});

/** node:fs, except that the `failAt`-th write of a created line writes half of it, then fails. */
function diskFullAt(failAt: number, code = 'ENOSPC') {
  let writes = 0;
  const fs: StateFileSystem = {
    ...nodeFs,
    writeSync: ((fd: number, buffer: Uint8Array, offset: number, length: number, position) => {
      if (position !== null && position !== undefined) writes += 1;
      if (writes === failAt) {
        nodeFs.writeSync(fd, buffer, offset, Math.floor(length / 2), position);
        throw Object.assign(new Error(`${code}: simulated`), { code });
      }
      return nodeFs.writeSync(fd, buffer, offset, length, position);
    }) as StateFileSystem['writeSync'],
  };
  return fs;
}

test('a create the disk cannot hold answers 507 and is not served; later creates and a restart lose nothing', async () => {
  const path = statePath();
  const base = await serve(createStateFile(path, { fs: diskFullAt(2) }));
  expect((await create(base, 'First')).status).toBe(201);
  const full = await create(base, 'Lost');
  expect(full.status).toBe(507);
  expect(full.body).toMatchObject({ code: 'insufficient_storage', status: 507 });
  expect(await names(base)).toEqual(['First']);
  const missing = await fetch(`${base}/v1/pets/2`, { headers: auth });
  expect(missing.status).toBe(404);
  const third = await create(base, 'Third');
  expect(third.status).toBe(201);
  expect(third.body.id).toBe(2);
  expect(await names(base)).toEqual(['First', 'Third']);
  expect(reload(path)).toEqual(['First', 'Third']);
});

test('an I/O error on append answers 500 storage_failed and is not served', async () => {
  const base = await serve(createStateFile(statePath(), { fs: diskFullAt(1, 'EIO') }));
  const failed = await create(base, 'Lost');
  expect(failed.status).toBe(500);
  expect(failed.body).toMatchObject({ code: 'storage_failed', status: 500 });
  expect(await names(base)).toEqual([]);
});

test('a persistence that refuses an append (ENOSPC) rolls the create back: 507, nothing served', async () => {
  let refuse = true;
  const saved: unknown[] = [];
  const persistence: StorePersistence = {
    load: () => undefined,
    replaceAll: () => {},
    appendCreated(pet) {
      if (refuse) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      saved.push(pet);
    },
  };
  const base = await serve(persistence);
  expect((await create(base, 'Refused')).status).toBe(507);
  expect(await names(base)).toEqual([]);
  refuse = false;
  expect((await create(base, 'Saved')).body).toMatchObject({ id: 1, name: 'Saved' });
  expect(saved).toHaveLength(1);
});

test.each([
  ['{}', 3],
  ['123', 3],
  ['not json', 3],
  ['', 3],
  ['{"created":{"id":1,"name":"Twin","categoryId":1}}', 3],
  ['{"created":{"id":9007199254740993,"name":"Big","categoryId":1}}', 3],
])(
  'a bad line in the middle (%j) stops the start naming the file and line, and leaves the file as it was',
  async (bad, line) => {
    const path = statePath();
    const text = `${snapshotLine}${createdLine(2, 'Two')}${bad}\n${createdLine(4, 'Four')}`;
    writeFileSync(path, text);
    const start = createFake({ persistence: createStateFile(path) });
    await expect(start).rejects.toBeInstanceOf(StateFileError);
    await expect(start).rejects.toThrow(`state file ${path}, line ${line}:`);
    expect(readFileSync(path, 'utf8')).toBe(text);
  },
);

test('a bad first line names line 1 and says it is not a state file', () => {
  const path = statePath();
  writeFileSync(path, '[1,2,3]\n');
  expect(() => createStateFile(path).load()).toThrow(/line 1: .*not a fake state file/);
  expect(readFileSync(path, 'utf8')).toBe('[1,2,3]\n');
});

test('with fsync, every append and every snapshot is flushed before it is acknowledged', async () => {
  const flushed: number[] = [];
  const fs: StateFileSystem = {
    ...nodeFs,
    fsyncSync: (fd) => {
      flushed.push(fd);
      nodeFs.fsyncSync(fd);
    },
  };
  const path = statePath();
  const base = await serve(createStateFile(path, { fs, fsync: true }));
  const afterStart = flushed.length;
  expect(afterStart).toBe(2); // the first snapshot and its directory entry
  for (let i = 0; i < 3; i++) expect((await create(base, `Pet ${i}`)).status).toBe(201);
  expect(flushed.length).toBe(afterStart + 3);
  expect(reload(path)).toEqual(['Pet 0', 'Pet 1', 'Pet 2']);
});
