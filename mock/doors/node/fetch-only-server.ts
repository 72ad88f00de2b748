/**
 * The fetch-only Node door: msw handlers answering the global `fetch` with no emulated socket.
 *
 * msw 3's `setupServer` answers Node's `fetch` through the interceptors' Node FetchInterceptor,
 * which lets undici open an emulated socket and parses the mocked answer back off it, most of what
 * a request through it costs (bench/in-process.ts times both doors). This door puts the
 * interceptors' web FetchInterceptor (a plain patch of `globalThis.fetch`, the one msw uses in
 * browsers; `@mswjs/interceptors/fetch/web`) under msw's own network API (`defineNetwork`, a
 * `NetworkSource`, `HttpNetworkFrame` from `msw/experimental`), so handlers, `server.use()`
 * overrides, `boundary()`, life-cycle events and `onUnhandledFrame` behave as under `setupServer`.
 * While nobody listens to the life-cycle events, requests take a faster path in front of it
 * (fetch-fast-path.ts) that calls the same handlers without building msw's frame and event objects.
 * It intercepts `fetch` only: `http`, `https` and `XMLHttpRequest` requests are neither answered
 * nor reported as unhandled.
 */
import type { HttpResponseEvent } from '@mswjs/interceptors';
import { FetchInterceptor } from '@mswjs/interceptors/fetch/web';
import type { RequestHandler } from 'msw';
import {
  defineNetwork,
  HttpNetworkFrame,
  NetworkReadyState,
  NetworkSource,
} from 'msw/experimental';
import { AsyncHandlersController, type SetupServer } from 'msw/node';
import { TypedEvent } from 'rettime';
import { answerDirectly, withoutBypassMark } from './fetch-fast-path.ts';

/** The response life-cycle event msw's frames emit (msw does not export its class). */
class FrameResponseEvent extends TypedEvent<
  { requestId: string; request: Request; response: Response },
  void,
  'response:mocked' | 'response:bypass'
> {
  readonly requestId: string;
  readonly request: Request;
  readonly response: Response;

  constructor(
    type: 'response:mocked' | 'response:bypass',
    data: { requestId: string; request: Request; response: Response },
  ) {
    super(type, { data });
    this.requestId = data.requestId;
    this.request = data.request;
    this.response = data.response;
  }
}

/** What a frame needs of the interceptor's request controller. */
interface RequestController {
  respondWith(response: Response): void;
  errorWith(reason?: unknown): void;
}

/** One intercepted `fetch`, answered through the interceptor's request controller. */
class FetchFrame extends HttpNetworkFrame {
  readonly #controller: RequestController;
  #unhandled = false;

  constructor(id: string, request: Request, controller: RequestController) {
    super({ id, request });
    this.#controller = controller;
    // msw announces an unmatched request before applying `onUnhandledFrame` to it.
    this.events.on('request:unhandled', () => {
      this.#unhandled = true;
    });
  }

  /**
   * An unanswered request: the interceptor performs it as-is once the listeners settle, without
   * the mark msw's `bypass()` leaves in its Accept header (msw's InterceptorSource removes it too).
   */
  passthrough(): void {
    withoutBypassMark(this.data.request);
  }

  respondWith(response?: Response): void {
    if (response) this.#controller.respondWith(response);
  }

  errorWith(reason?: unknown): void {
    if (reason instanceof Response) {
      this.respondWith(reason);
      return;
    }
    // `onUnhandledFrame: 'error'` refusing an unmatched request: the `fetch` call rejects with
    // a network error, as under setupServer (where undici reports it).
    if (this.#unhandled) {
      this.#controller.errorWith(new TypeError('Failed to fetch', { cause: reason }));
      return;
    }
    // A handler threw: as under setupServer, the interceptor answers 500 with the error.
    throw reason;
  }
}

/** Frames from the global `fetch`, through the interceptors' web FetchInterceptor. */
class FetchSource extends NetworkSource<FetchFrame> {
  readonly #interceptor = new FetchInterceptor();
  readonly #wantsResponses: () => boolean;
  #frames = new WeakMap<Request, FetchFrame>();
  #observingResponses = false;

  /** `wantsResponses` says whether anyone listens for `response:*` life-cycle events. */
  constructor(wantsResponses: () => boolean) {
    super();
    this.#wantsResponses = wantsResponses;
  }

  enable(): void {
    this.#interceptor.apply();
    this.#observingResponses = false;
    this.#interceptor.on('request', async ({ requestId, request, controller }) => {
      const frame = new FetchFrame(requestId, request, controller);
      // The interceptor clones every response while it has a response listener; add one only
      // once someone listens for response events, which is what keeps this door cheap.
      if (this.#wantsResponses()) {
        this.#frames.set(request, frame);
        if (!this.#observingResponses) {
          this.#observingResponses = true;
          this.#interceptor.on('response', (event) => this.#forwardResponse(event));
        }
      }
      await this.queue(frame);
    });
  }

  #forwardResponse({ requestId, request, response, responseType }: HttpResponseEvent): void {
    const frame = this.#frames.get(request);
    if (frame === undefined) return;
    this.#frames.delete(request);
    const type = responseType === 'mock' ? 'response:mocked' : 'response:bypass';
    frame.events.emit(new FrameResponseEvent(type, { requestId, request, response }));
    frame.events.removeAllListeners();
  }

  override disable(): void {
    // The base class only removes its frame listeners, synchronously (its type allows a promise).
    void super.disable();
    this.#interceptor.dispose();
    this.#frames = new WeakMap();
  }
}

/**
 * Like msw's `setupServer(...handlers)`, for code that calls the global `fetch` only, with no
 * emulated socket: `listen`, `use`, `resetHandlers`, `restoreHandlers`, `listHandlers`,
 * `boundary`, `events` and `close` as msw documents them.
 */
export function setupFetchServer(...handlers: RequestHandler[]): SetupServer {
  const handlersController = new AsyncHandlersController(handlers);
  const listensForResponses = (): boolean =>
    network.events.listenerCount('response:mocked') +
      network.events.listenerCount('response:bypass') +
      network.events.listenerCount('*') >
    0;
  let unpatch = () => {};
  const network = defineNetwork({
    sources: [new FetchSource(listensForResponses)],
    handlers: handlersController,
    onUnhandledFrame: 'warn',
    context: { quiet: true },
  });
  return {
    get readyState() {
      return network.readyState;
    },
    events: network.events,
    listen(options) {
      if (network.readyState !== NetworkReadyState.DISABLED)
        throw new Error(
          'setupFetchServer: server.listen() was called twice; remove the redundant call',
        );
      const handle = options?.onUnhandledFrame ?? 'warn';
      network.configure({ onUnhandledFrame: handle });
      const original = globalThis.fetch;
      network.enable();
      const viaFrames = globalThis.fetch;
      // A callback strategy needs msw's frame; an unknown name is msw's to refuse.
      if (handle !== 'bypass' && handle !== 'warn' && handle !== 'error') return;
      const requestHandlers = () =>
        handlersController.getHandlersByKind('request') as RequestHandler[];
      const door: typeof fetch = async (input, init) => {
        // Someone listens to life-cycle events: msw's frame emits them.
        if (network.events.listenerCount() > 0) return viaFrames(input, init);
        // As the interceptor does: a relative URL resolves against the page (jsdom, happy-dom).
        const resolved =
          typeof input === 'string' && typeof location !== 'undefined' && !URL.canParse(input)
            ? new URL(input, location.href)
            : input;
        return answerDirectly(new Request(resolved, init), requestHandlers, handle, original);
      };
      globalThis.fetch = door;
      unpatch = () => {
        if (globalThis.fetch === door) globalThis.fetch = viaFrames;
      };
    },
    use: (...more) => network.use(...more),
    resetHandlers: (...next) => network.resetHandlers(...next),
    restoreHandlers: () => network.restoreHandlers(),
    listHandlers: () => network.listHandlers(),
    close() {
      unpatch();
      unpatch = () => {};
      network.disable();
    },
    boundary: (callback) => handlersController.boundary(callback),
  };
}
