/**
 * A small panel in the app's page that shows the fake and steers it, as TanStack Query's and
 * Redux's devtools do for theirs: each key the page used with its plan, X-RateLimit-Remaining and
 * the time to its reset, a ban and the time left, the fake's clock, forced answers and chaos, the
 * last requests; buttons to reset, lift a ban, force the next 429 or 503 and turn chaos on or off.
 *
 * It reads and steers through `fake.control` only (panel-reading.ts): it spends no request of any
 * key, and in the browser it shows the one fake the tabs share, whichever tab runs it. It lives in
 * a shadow root appended to `document.body`, so the app's styles do not reach it and it needs no
 * element of the app (a Storybook page has it too); it never takes the keyboard focus (no
 * autofocus; its buttons are in the tab order after the app's). Collapsed or not is kept in
 * `localStorage`.
 */
import type { OperationId } from '../../../base/contract/types.ts';
import type { ChaosSettings } from '../../../index.ts';
import { duration, type PanelModel, panelModel } from './panel-model.ts';
import { type PanelControl, type PanelReading, readFake } from './panel-reading.ts';
import { PanelView } from './panel-view.ts';

/** Options of `showPanel`. */
export interface PanelOptions {
  /**
   * What "Chaos on" sets. Default: seed 42, on every operation 5% 503 and 0-250 ms of latency
   * (docs/qa.md, "Chaos").
   */
  readonly chaos?: ChaosSettings;
  /** How often the panel reads the fake, ms (at least 250). Default 1000. */
  readonly refreshMs?: number;
}

/** The panel in the page. */
export interface Panel {
  /** The panel's element (its shadow root holds the rest). */
  readonly element: HTMLElement;
  /** Reads the fake now and shows it; resolves once shown. */
  refresh(): Promise<void>;
  /** Stops reading the fake and removes the panel. */
  close(): void;
}

const defaultChaos: ChaosSettings = {
  seed: 42,
  rules: [{ errors: { '503': 0.05 }, latency: { distribution: 'uniform', minMs: 0, maxMs: 250 } }],
};

/** Where the panel keeps whether it is collapsed. */
const collapsedKey = 'petstore-fake-panel:collapsed';

/** The panel shown on each document, so a second `showPanel` replaces the first. */
const shown = new WeakMap<Document, Panel>();

/** Reads a flag from localStorage; storage a browser refuses counts as not set. */
function remembered(key: string): boolean {
  try {
    return localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
}

function remember(key: string, value: boolean): void {
  try {
    localStorage.setItem(key, String(value));
  } catch {
    // Storage refused (a sandboxed frame): the panel works, it only forgets on reload.
  }
}

/**
 * One panel's life: the fake's last reading, shown in its view, read again on a timer, and the
 * buttons' actions on the fake's control surface.
 */
class ShownPanel {
  readonly view: PanelView;
  readonly #control: PanelControl;
  readonly #chaos: ChaosSettings;
  #reading: PanelReading | undefined;
  #model: PanelModel | undefined;
  /** The reading the last requests were last shown from: they change with a new one only. */
  #recentFrom: PanelReading | undefined;
  #reads = 0;

  constructor(control: PanelControl, chaos: ChaosSettings) {
    this.#control = control;
    this.#chaos = chaos;
    this.view = new PanelView({
      toggled: (collapsed) => remember(collapsedKey, collapsed),
      lift: (keyId) => void this.#act(() => this.#liftBan(keyId)),
      forceNext: (operationId, status) =>
        void this.#act(() => this.#forceNext(operationId, status)),
      toggleChaos: () => void this.#act(() => this.#toggleChaos()),
      reset: () => void this.#act(() => this.#reset()),
    });
    this.view.setCollapsed(remembered(collapsedKey));
  }

  /** Shows the last reading again: the countdowns run on it between reads. */
  render = (): void => {
    if (this.#reading === undefined) return;
    this.#model = panelModel(this.#reading, Date.now());
    const newReading = this.#recentFrom !== this.#reading;
    this.#recentFrom = this.#reading;
    this.view.show(this.#model, newReading);
  };

  refresh = async (): Promise<void> => {
    const read = ++this.#reads;
    try {
      const next = await readFake(this.#control);
      // An older read that settles after a newer one must not show the past.
      if (read !== this.#reads) return;
      this.#reading = next;
      if (this.view.saysError) this.view.say('');
      this.render();
    } catch (error) {
      this.view.say(
        `Cannot read the fake: ${error instanceof Error ? error.message : String(error)}`,
        true,
      );
    }
  };

  /** Runs a button's action, says what it did or why not, then shows the fake as it is now. */
  async #act(action: () => Promise<string>): Promise<void> {
    try {
      this.view.say(await action());
    } catch (error) {
      this.view.say(error instanceof Error ? error.message : String(error), true);
    }
    await this.refresh();
  }

  /** Moves the fake's clock just past the end of a key's ban (the ban is the key's, the clock everyone's). */
  async #liftBan(keyId: string): Promise<string> {
    const bannedUntil = this.#model?.keys.find((key) => key.id === keyId)?.bannedUntil;
    if (bannedUntil === undefined) return `${keyId} is not banned`;
    const seconds = Math.ceil((bannedUntil - (await this.#control.now())) / 1000);
    if (seconds <= 0) return `${keyId}'s ban has ended`;
    await this.#control.advanceTime(seconds);
    return `Ban of ${keyId} lifted: the fake's clock moved ${duration(seconds * 1000)} ahead`;
  }

  async #forceNext(operationId: OperationId, status: 429 | 503): Promise<string> {
    await this.#control.force(operationId, status, 1);
    return `The next ${operationId} answers ${status}`;
  }

  async #toggleChaos(): Promise<string> {
    if (this.#reading?.chaos !== null && this.#reading?.chaos !== undefined) {
      await this.#control.clearChaos();
      return 'Chaos off';
    }
    const settings = await this.#control.setChaos(this.#chaos);
    return `Chaos on (seed ${settings.seed})`;
  }

  async #reset(): Promise<string> {
    await this.#control.reset();
    return 'Reset: seed pets, no usage, bans, forced answers or chaos, real time';
  }
}

/**
 * Shows the panel over the page for `fake` (from `createBrowserFake`, `startFakeWorker` or
 * `createFake`), in development only, as the fake itself is.
 * @example
 * const fake = await createBrowserFake();
 * showPanel(fake);
 */
export function showPanel(
  fake: { readonly control: PanelControl },
  options: PanelOptions = {},
): Panel {
  shown.get(document)?.close();
  const refreshMs = Math.max(250, options.refreshMs ?? 1000);
  const panel = new ShownPanel(fake.control, options.chaos ?? defaultChaos);
  const host = panel.view.host;

  // Read the fake while the page is seen; between reads, the countdowns run on the reading.
  const poll = setInterval(() => {
    if (!document.hidden) void panel.refresh();
  }, refreshMs);
  const tick = setInterval(panel.render, 250);
  const onVisible = () => {
    if (!document.hidden) void panel.refresh();
  };
  document.addEventListener('visibilitychange', onVisible);

  (document.body ?? document.documentElement).append(host);
  const handle: Panel = {
    element: host,
    refresh: panel.refresh,
    close() {
      clearInterval(poll);
      clearInterval(tick);
      document.removeEventListener('visibilitychange', onVisible);
      host.remove();
      if (shown.get(document) === handle) shown.delete(document);
    },
  };
  shown.set(document, handle);
  void panel.refresh();
  return handle;
}
