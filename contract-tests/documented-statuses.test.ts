/**
 * openapi/petstore.yaml lists, for each operation, exactly the statuses the fake answers it with
 * on its own, and no `default`: a validator that reads the document (Prism, Portman,
 * openapi-backend) then refuses any other status from a server, a 5xx from staging above all.
 * The fake's 5xx come only from QA (forced, chaos) or from a fault of its own (a bug, a full
 * store or disk), and are listed nowhere. Over the HTTP door, with raw sockets; Prism's proxy,
 * pinned in devDependencies, is the third-party judge.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  createFake,
  errorTemplates,
  type FakeWithCore,
  type HttpDoor,
  listenHttp,
  openapiDocument,
} from '../mock/internal/entry.ts';
import { startPrism } from './targets/prism-process.ts';

let fake: FakeWithCore;
let door: HttpDoor;
let port: number;
const tightKey = 'tight-limit-key-1';

/**
 * Adds a key allowed one request a minute: its second is a 429. The clock is frozen until the
 * next reset, so no minute ends between the two (the cases poll every 20 ms in between).
 */
function addTightKey(): void {
  fake.control.freezeTime(true);
  fake.control.addKey({ id: 'tight', key: tightKey, plan: 'free' });
  fake.control.updateKey('tight', { limits: { perMinute: 1, perDay: 100 } });
}

beforeAll(async () => {
  fake = await createFake();
  door = await listenHttp(fake.behaviour, {
    port: 0,
    origin: fake.config.origins[0] as string,
    // Short enough for a test to see 408; Node's sweep checks every 100 ms.
    limits: { headersTimeout: 400, requestTimeout: 800, connectionsCheckingInterval: 100 },
  });
  port = (door.server.address() as { port: number }).port;
});
afterAll(() => door.close());

/** The status of the answer to `request` on a new connection; `pause` ms between its two parts. */
async function statusOf(request: string | [string, string]): Promise<number> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(socket, 'connect');
  // A request left unfinished (headers or body never end) waits for the door's time-out.
  if (Array.isArray(request)) socket.write(request[0]);
  else socket.end(request);
  for (let waited = 0; !/^HTTP\/1\.1 \d{3}/.test(Buffer.concat(chunks).toString('latin1')); ) {
    if (waited > 5_000) throw new Error(`no answer to ${String(request).slice(0, 80)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    waited += 20;
  }
  socket.destroy();
  return Number(Buffer.concat(chunks).toString('latin1').slice(9, 12));
}

const host = 'Host: 127.0.0.1:4010';
const key = 'Authorization: Bearer free-demo-key';
const json = 'Content-Type: application/json';
const close = 'Connection: close';
/** A request line, headers and body, each header line ended. */
const http = (line: string, headers: readonly string[], body = '') =>
  `${line} HTTP/1.1\r\n${headers.map((header) => `${header}\r\n`).join('')}\r\n${body}`;
const longQuery = `x=${'a'.repeat(9000)}`;
const bigHeader = `X-Big: ${'b'.repeat(20_000)}`;
const pet = JSON.stringify({ name: 'Rex', categoryId: 1 });

/** For each operation, a request that earns each status the fake can answer it with. */
const provoked: Record<string, Record<number, () => Promise<number>>> = {
  listPets: {
    200: () => statusOf(http('GET /v1/pets', [host, key, close])),
    400: () => statusOf(http('GET /v1/pets?limit=0', [host, key, close])),
    401: () => statusOf(http('GET /v1/pets', [host, close])),
    403: () => statusOf(http('GET /v1/pets', ['Host: attacker.example', key, close])),
    408: () => statusOf([`GET /v1/pets HTTP/1.1\r\n${host}\r\n${key}\r\n`, '']),
    414: () => statusOf(http(`GET /v1/pets?${longQuery}`, [host, key, close])),
    417: () => statusOf(http('GET /v1/pets', [host, key, 'Expect: 200-ok'])),
    429: async () => {
      addTightKey();
      await statusOf(http('GET /v1/pets', [host, `Authorization: Bearer ${tightKey}`, close]));
      return statusOf(http('GET /v1/pets', [host, `Authorization: Bearer ${tightKey}`, close]));
    },
    431: () => statusOf(http('GET /v1/pets', [host, key, bigHeader])),
  },
  createPet: {
    201: () =>
      statusOf(http('POST /v1/pets', [host, key, json, `Content-Length: ${pet.length}`], pet)),
    400: () => statusOf(http('POST /v1/pets', [host, key, json, 'Content-Length: 2'], '{}')),
    401: () => statusOf(http('POST /v1/pets', [host, json, `Content-Length: ${pet.length}`], pet)),
    403: () =>
      statusOf(
        http(
          'POST /v1/pets',
          ['Host: attacker.example', key, json, `Content-Length: ${pet.length}`],
          pet,
        ),
      ),
    408: () =>
      statusOf([http('POST /v1/pets', [host, key, json, 'Content-Length: 100'], '{"na'), '']),
    413: () => statusOf(http('POST /v1/pets', [host, key, json, 'Content-Length: 2000000'])),
    414: () =>
      statusOf(http(`POST /v1/pets?${longQuery}`, [host, key, json, 'Content-Length: 2'], '{}')),
    417: () =>
      statusOf(
        http('POST /v1/pets', [host, key, json, 'Expect: 200-ok', 'Content-Length: 2'], '{}'),
      ),
    429: async () => {
      addTightKey();
      const tight = [
        host,
        `Authorization: Bearer ${tightKey}`,
        json,
        `Content-Length: ${pet.length}`,
      ];
      await statusOf(http('POST /v1/pets', tight, pet));
      return statusOf(http('POST /v1/pets', tight, pet));
    },
    431: () =>
      statusOf(http('POST /v1/pets', [host, key, bigHeader, json, 'Content-Length: 2'], '{}')),
  },
  getPet: {
    200: () => statusOf(http('GET /v1/pets/1', [host, key, close])),
    400: () => statusOf(http('GET /v1/pets/1', [key])), // HTTP/1.1 without Host
    401: () => statusOf(http('GET /v1/pets/1', [host, close])),
    403: () => statusOf(http('GET /v1/pets/1', ['Host: attacker.example', key, close])),
    404: () => statusOf(http('GET /v1/pets/999999', [host, key, close])),
    408: () => statusOf([`GET /v1/pets/1 HTTP/1.1\r\n${host}\r\n`, '']),
    414: () => statusOf(http(`GET /v1/pets/1?${longQuery}`, [host, key, close])),
    417: () => statusOf(http('GET /v1/pets/1', [host, key, 'Expect: 200-ok'])),
    429: async () => {
      addTightKey();
      await statusOf(http('GET /v1/pets/1', [host, `Authorization: Bearer ${tightKey}`, close]));
      return statusOf(http('GET /v1/pets/1', [host, `Authorization: Bearer ${tightKey}`, close]));
    },
    431: () => statusOf(http('GET /v1/pets/1', [host, key, bigHeader])),
  },
};

/** The statuses petstore.yaml lists for each operation. */
const documented = Object.fromEntries(
  Object.values(openapiDocument.paths).flatMap((methods) =>
    Object.values(methods).map((operation) => [
      operation.operationId,
      Object.keys(operation.responses),
    ]),
  ),
);

test('no operation has a default response, and none lists a 5xx', () => {
  expect(Object.keys(documented).sort()).toEqual(['createPet', 'getPet', 'listPets']);
  for (const [operationId, statuses] of Object.entries(documented) as [string, string[]][]) {
    expect(statuses, operationId).not.toContain('default');
    expect(
      statuses.filter((status) => Number(status) >= 500),
      operationId,
    ).toEqual([]);
  }
});

test('over HTTP the fake answers each operation with every status the document lists for it, and the request that earns it', async () => {
  for (const [operationId, statuses] of Object.entries(documented)) {
    const requests = provoked[operationId] ?? {};
    // The same statuses on both sides: none documented without a request earning it here.
    expect(Object.keys(requests), operationId).toEqual(statuses);
    for (const [status, send] of Object.entries(requests)) {
      await fake.control.reset();
      expect([operationId, await send()]).toEqual([operationId, Number(status)]);
    }
  }
});

test("every 4xx in the fake's error table is listed for the operations it can answer, or is answered outside them", () => {
  // Answered to requests no operation matches (an unknown path or method) or on the control
  // surface, never to a request of listPets, createPet or getPet.
  const outsideOperations = new Set([
    'route_not_found',
    'method_not_allowed',
    'cross_site_request',
    'control_forbidden',
    'invalid_control_request',
    'control_not_found',
    'control_conflict',
  ]);
  const everywhere = new Set(Object.values(documented).flat());
  const unlisted = Object.entries(errorTemplates)
    .filter(([code, { status }]) => status < 500 && !outsideOperations.has(code))
    .filter(([, { status }]) => !everywhere.has(String(status)))
    .map(([code]) => code);
  expect(unlisted).toEqual([]);
});

test("Prism's proxy, reading the document, flags a forced 500 as a status it does not list, and no status the fake answers on its own", async () => {
  const prism = await startPrism('proxy', [`http://127.0.0.1:${port}/v1`]);
  try {
    /** What Prism said about the response it carried (its `sl-violations` header). */
    const judged = async (path: string, headers: Record<string, string>) => {
      const res = await fetch(`${prism.origin}${path}`, { headers });
      await res.arrayBuffer();
      const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]') as {
        location?: string[];
        message?: string;
      }[];
      const findings = violations.filter((item) => item.location?.[0] === 'response');
      return { status: res.status, findings: findings.map((item) => item.message) };
    };
    const auth = { Authorization: 'Bearer free-demo-key' };
    await fake.control.reset();
    expect(await judged('/pets?limit=2', auth)).toEqual({ status: 200, findings: [] });
    expect(await judged('/pets?limit=0', auth)).toEqual({ status: 400, findings: [] });
    expect(await judged('/pets/999999', auth)).toEqual({ status: 404, findings: [] });
    fake.control.force('listPets', 500, 1);
    const forced = await judged('/pets', auth);
    expect(forced.status).toBe(500);
    expect(forced.findings).toEqual([
      expect.stringMatching(
        /^Unable to match the returned status code with those defined in the document: 200,400,401,403,408,414,417,429,431$/,
      ),
    ]);
  } finally {
    await prism.stop();
  }
}, 90_000);
