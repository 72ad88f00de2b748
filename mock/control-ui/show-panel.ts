/**
 * A small panel in the app's page that shows the fake and steers it, as TanStack Query's and
 * Redux's devtools do for theirs: each key the page used with its plan, Remaining, reset and ban,
 * the clock, forced answers, chaos, the last requests; buttons to reset, lift a ban, force the
 * next 429 or 503 and turn chaos on or off. It goes through `fake.control` only
 * (control-reading.ts), so it spends no request of any key. It lives in a shadow root appended to
 * `document.body`, so the app's styles do not reach it and it needs no element of the app; it
 * never takes the keyboard focus. Collapsed or not is kept in `localStorage`.
 */
import { operationIds } from '../base/contract/schemas.ts';
import type { OperationId } from '../base/contract/types.ts';
import type { ChaosSettings } from '../steps/qa/injected-failures/chaos-settings.ts';
import { duration, type PanelModel, panelKeyRow, panelModel } from './control-model.ts';
import { type PanelControl, readFake } from './control-reading.ts';
import { panelStyles } from './control-styles.ts';
import { LiveView, onPress, RowTable, rowsPlace, setText } from './control-view.ts';

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

/** The panel shown on the page, so a second `showPanel` replaces the first. */
let shown: Panel | undefined;

/** Reads or writes the collapsed flag; storage a browser refuses (a sandboxed frame) forgets it. */
function remembered(value?: boolean): boolean {
  try {
    if (value !== undefined) localStorage.setItem(collapsedKey, String(value));
    return localStorage.getItem(collapsedKey) === 'true';
  } catch {
    return false;
  }
}

/** A line of the panel: a label and the text after it. */
function line(name: string, label: string): string {
  return `<p class="${name}"><span class="label">${label}</span><span class="${name}-text"></span></p>`;
}

/** A button of the panel, with a tooltip saying what it does. */
function action(name: string, text: string, title: string): string {
  return `<button type="button" class="${name}" title="${title}">${text}</button>`;
}

/** The panel's elements: static markup, no data (what a reading shows is written as text). */
const panelMarkup = `<style>${panelStyles}</style>
<section class="panel" aria-label="Pet Store fake">
<header><button type="button" class="toggle" aria-controls="petstore-fake-panel-body"></button>
<span class="title">Pet Store fake</span><span class="summary"></span></header>
<div class="body" id="petstore-fake-panel-body">${line('clock', 'Clock')}
${rowsPlace('keys', 'Key,Plan,Remaining,Resets in,Ban', 'No key used yet: the page’s requests show here.')}
${line('forced', 'Forced')}${line('chaos', 'Chaos')}
<div class="actions"><select class="operation" aria-label="Operation to force">
${operationIds.map((id) => `<option>${id}</option>`).join('')}</select>
${[429, 503].map((status) => action(`force-${status}`, `Next ${status}`, `Force the next answer of the operation to ${status}`)).join('')}
${action('chaos-toggle', 'Chaos on', 'Turn chaos on or off')}
${action('reset', 'Reset', 'Back to the seed: no usage, bans, forced answers or chaos; real time')}</div>
<h3>Last requests</h3>${rowsPlace('recent', '', 'No request with a key yet.')}<p class="message" role="status"></p></div>
</section>`;

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
  shown?.close();
  const control = fake.control;
  // The panel's element name: an app's selector for its own elements will not match it.
  const host = document.createElement('petstore-fake-panel');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = panelMarkup;
  const find = (selector: string) => root.querySelector(selector) as HTMLElement;
  const panel = find('.panel');
  const toggle = find('.toggle');
  const status = find('.message');
  const keys = new RowTable(find('#keys'));
  const recent = new RowTable(find('#recent'));
  let model: PanelModel | undefined;

  const say = (text: string, error = false) => {
    setText(status, text);
    status.classList.toggle('error', error);
  };
  const live = new LiveView(
    () => readFake(control),
    (reading, fresh) => {
      if (fresh && status.classList.contains('error')) say('');
      model = panelModel(reading, Date.now());
      setText(find('.summary'), model.summary);
      setText(find('.clock-text'), model.clock);
      keys.show(model.keys.map(panelKeyRow));
      setText(find('.forced-text'), model.forced.join('; ') || 'none');
      setText(find('.chaos-text'), model.chaos.on ? model.chaos.lines.join('; ') : 'off');
      setText(find('.chaos-toggle'), model.chaos.on ? 'Chaos off' : 'Chaos on');
      recent.show(model.recent);
    },
    (error, reading) => {
      const message = error instanceof Error ? error.message : String(error);
      say(reading ? `Cannot read the fake: ${message}` : message, true);
    },
  );
  const act = (action: () => Promise<string>) => () =>
    void live.act(async () => say(await action()));
  const setCollapsed = (collapsed: boolean) => {
    panel.classList.toggle('collapsed', collapsed);
    toggle.setAttribute('aria-expanded', String(!collapsed));
    toggle.setAttribute(
      'aria-label',
      collapsed ? 'Expand the Pet Store fake panel' : 'Collapse the Pet Store fake panel',
    );
  };
  const forceNext = (status: 429 | 503) =>
    act(async () => {
      const operationId = (find('.operation') as HTMLSelectElement).value as OperationId;
      await control.force(operationId, status, 1);
      return `The next ${operationId} answers ${status}`;
    });
  onPress(root, {
    toggle() {
      const collapsed = !panel.classList.contains('collapsed');
      setCollapsed(collapsed);
      remembered(collapsed);
    },
    // Moves the fake's clock just past the end of a key's ban (the ban is the key's, the clock everyone's).
    lift: (keyId) =>
      act(async () => {
        const bannedUntil = model?.keys.find((key) => key.id === keyId)?.bannedUntil;
        if (bannedUntil === undefined) return `${keyId} is not banned`;
        const seconds = Math.ceil((bannedUntil - (await control.now())) / 1000);
        if (seconds <= 0) return `${keyId}'s ban has ended`;
        await control.advanceTime(seconds);
        return `Ban of ${keyId} lifted: the fake's clock moved ${duration(seconds * 1000)} ahead`;
      })(),
    'force-429': forceNext(429),
    'force-503': forceNext(503),
    'chaos-toggle': act(async () => {
      if (live.reading?.chaos != null) {
        await control.clearChaos();
        return 'Chaos off';
      }
      const settings = await control.setChaos(options.chaos ?? defaultChaos);
      return `Chaos on (seed ${settings.seed})`;
    }),
    reset: act(async () => {
      await control.reset();
      return 'Reset: seed pets, no usage, bans, forced answers or chaos, real time';
    }),
  });
  setCollapsed(remembered());

  (document.body ?? document.documentElement).append(host);
  // Read the fake while the page is seen; between reads, the countdowns run on the reading.
  live.start(Math.max(250, options.refreshMs ?? 1000), 250);
  const handle: Panel = {
    element: host,
    refresh: live.refresh,
    close() {
      live.stop();
      host.remove();
      if (shown === handle) shown = undefined;
    },
  };
  shown = handle;
  return handle;
}
