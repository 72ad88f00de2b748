/**
 * What the fetch-only door (fetch-only-server.ts, fetch-fast-path.ts) takes from msw beyond its
 * documented API, checked against whichever msw is installed: the exports and methods it builds
 * on (msw/experimental's network, msw/node's handlers controller, the interceptors' web fetch
 * interceptor), and a few behaviours compared side by side with msw's own `setupServer`, on both
 * of the door's paths. Each problem names what changed. msw-upgrade.test.ts runs it against the
 * pinned msw and, in a project of its own, against the newest msw 3 on npm.
 *
 * Standalone on purpose (it imports only msw and the door), so it can be copied beside the door's
 * two files into that project and run there: `node msw-upgrade-probe.ts` prints a JSON line.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as web from '@mswjs/interceptors/fetch/web';
import * as msw from 'msw';
import * as experimental from 'msw/experimental';
import * as node from 'msw/node';
import * as rettime from 'rettime';
import { setupFetchServer } from './fetch-only-server.ts';

/** An export the door uses, with what it uses it for, and the methods it calls on it. */
export interface Used {
  readonly module: string;
  readonly exports: Record<string, unknown>;
  readonly name: string;
  readonly methods?: readonly string[];
  /** Methods looked up on an instance (the class sets some up in its constructor). */
  readonly instanceMethods?: readonly string[];
  readonly usedFor: string;
}

const used: readonly Used[] = [
  {
    module: 'msw/experimental',
    exports: experimental,
    name: 'defineNetwork',
    usedFor: 'the network the door runs its handlers in',
  },
  {
    module: 'msw/experimental',
    exports: experimental,
    name: 'NetworkSource',
    methods: ['queue', 'disable'],
    usedFor: 'the base class of the door’s FetchSource, whose queue() and disable() it calls',
  },
  {
    module: 'msw/experimental',
    exports: experimental,
    name: 'HttpNetworkFrame',
    usedFor:
      'the base class of the door’s FetchFrame (the methods it overrides are checked by the behaviours below)',
  },
  {
    module: 'msw/experimental',
    exports: experimental,
    name: 'NetworkReadyState',
    usedFor: 'server.readyState and the double listen() check',
  },
  {
    module: 'msw/node',
    exports: node,
    name: 'AsyncHandlersController',
    methods: ['getHandlersByKind', 'boundary'],
    usedFor: 'the handler list of the fast path, and server.boundary()',
  },
  {
    module: 'msw',
    exports: msw,
    name: 'getResponse',
    usedFor: 'the fast path’s answer',
  },
  {
    module: 'msw',
    exports: msw,
    name: 'isPassthroughResponse',
    usedFor: 'passthrough() on the fast path',
  },
  {
    module: '@mswjs/interceptors/fetch/web',
    exports: web,
    name: 'FetchInterceptor',
    instanceMethods: ['apply', 'dispose', 'on'],
    usedFor: 'the patch of globalThis.fetch the frames come from',
  },
  {
    module: 'rettime',
    exports: rettime,
    name: 'TypedEvent',
    usedFor: 'the response events the door emits as msw’s frames do',
  },
];

/** Which of the exports and methods the door builds on are missing, each named. */
function missingExports(): string[] {
  return missingFrom(used);
}

/** Which of `uses` are missing from their modules. */
export function missingFrom(uses: readonly Used[]): string[] {
  const problems: string[] = [];
  for (const { module, exports, name, methods = [], instanceMethods = [], usedFor } of uses) {
    const value = exports[name] as
      | (Record<string, unknown> & (new () => Record<string, unknown>))
      | undefined;
    if (value === undefined) {
      problems.push(`${module} no longer exports ${name} (${usedFor})`);
      continue;
    }
    const prototype = (value.prototype ?? {}) as Record<string, unknown>;
    const instance = instanceMethods.length === 0 ? {} : new value();
    for (const [owner, names] of [
      [prototype, methods],
      [instance, instanceMethods],
    ] as const) {
      for (const method of names) {
        if (typeof owner[method] !== 'function')
          problems.push(`${module}'s ${name} has no method ${method} (${usedFor})`);
      }
    }
  }
  return problems;
}

/** What a `fetch` came back with, as text to compare. */
async function outcome(send: () => Promise<Response>): Promise<string> {
  try {
    const response = await send();
    const body = await response.text();
    const type = response.headers.get('content-type') ?? '';
    // A handler's error answer carries its stack: compare its shape, not where it was thrown.
    const shown =
      type.includes('json') && body.includes('"stack"') ? '{name, message, stack}' : body;
    return `${response.status} ${shown}`;
  } catch (error) {
    return `rejected ${(error as Error).name}`;
  }
}

/** The behaviours compared: handlers, and the requests sent under them. */
function behaviours(upstream: string) {
  const { http, HttpResponse, bypass, passthrough } = msw;
  const handlers = [
    http.get('http://fake.test/pets', () => HttpResponse.json([{ id: 1 }])),
    http.get('http://fake.test/boom', () => {
      throw new Error('the handler threw');
    }),
    http.get(`${upstream}through`, () => passthrough()),
    http.get(`${upstream}bypassed`, () => HttpResponse.text('mocked')),
  ];
  const cases: Record<string, () => Promise<Response>> = {
    'a handler answers': () => fetch('http://fake.test/pets'),
    'a handler that throws gets msw’s 500': () => fetch('http://fake.test/boom'),
    'passthrough() reaches the network': () => fetch(`${upstream}through`),
    'bypass() reaches the network': () => fetch(bypass(new Request(`${upstream}bypassed`))),
    'an unhandled request under onUnhandledFrame: error rejects': () =>
      fetch('http://fake.test/nowhere'),
  };
  return { handlers, cases };
}

/** Runs every case under `start` (setupServer or the door) and returns their outcomes. */
async function outcomesUnder(
  start: (...handlers: msw.RequestHandler[]) => node.SetupServer,
  upstream: string,
  listenToEvents: boolean,
): Promise<Record<string, string>> {
  const { handlers, cases } = behaviours(upstream);
  const server = start(...handlers);
  // msw says what it makes of a throwing handler and an unhandled request on the console; the
  // cases provoke both on purpose.
  const { error, warn } = console;
  console.error = () => {};
  console.warn = () => {};
  server.listen({ onUnhandledFrame: 'error' });
  const seen: string[] = [];
  if (listenToEvents) {
    server.events.on('request:start', () => seen.push('request:start'));
    server.events.on('response:mocked', () => seen.push('response:mocked'));
  }
  const results: Record<string, string> = {};
  try {
    for (const [name, send] of Object.entries(cases)) results[name] = await outcome(send);
    server.use(msw.http.get('http://fake.test/pets', () => msw.HttpResponse.json([])));
    results['server.use() overrides'] = await outcome(() => fetch('http://fake.test/pets'));
  } finally {
    server.close();
    Object.assign(console, { error, warn });
  }
  if (listenToEvents) results['life-cycle events'] = [...new Set(seen)].sort().join(', ') || 'none';
  return results;
}

/**
 * Everything the probe finds wrong with the installed msw, each problem naming what changed;
 * `door` is the fetch-only door (another one shows what a broken door is told).
 */
export async function probeMsw(
  door: typeof setupFetchServer = setupFetchServer,
): Promise<{ readonly version: string; readonly problems: string[] }> {
  const problems = missingExports();
  const upstream = createServer((_request, response) => response.end('upstream'));
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
  try {
    if (problems.length === 0) {
      for (const [path, listen] of [
        ['fast path', false],
        ['frame path (life-cycle listeners)', true],
      ] as const) {
        const expected = await outcomesUnder(node.setupServer, url, listen);
        const actual = await outcomesUnder(door, url, listen);
        for (const [name, answer] of Object.entries(expected)) {
          if (actual[name] !== answer)
            problems.push(
              `${path}: ${name}: setupServer gives "${answer}", the fetch-only door "${actual[name]}"`,
            );
        }
      }
    }
  } finally {
    upstream.close();
  }
  const { version } = (await import('msw/package.json', { with: { type: 'json' } })).default as {
    version: string;
  };
  return { version, problems };
}

if (import.meta.main) console.log(JSON.stringify(await probeMsw()));
