/**
 * The control UI's styles: what both mounts share, then each mount's own. Inherited properties
 * flow into the panel's shadow root through the host element, which the app's rules can select:
 * `all: initial !important` on `:host` wins over them (an important declaration of a shadow tree
 * beats the page's, CSS Cascade 4, "Context"). The panel's sizes are in px: `rem` would follow
 * the app's root font size.
 */
const shared = `
table { border-collapse: collapse; width: 100%; margin: 4px 0; }
th, td { text-align: left; padding: 3px 4px; border-bottom: 1px solid #e3e7ee; vertical-align: middle; }
th { color: #5a6375; font-weight: 600; background: #f3f5f9; white-space: nowrap; }
button, select { line-height: 1.2; padding: 3px 8px; margin: 0; border: 1px solid #9aa3b2; border-radius: 4px;
  background: #f6f7fa; color: #1d2330; cursor: pointer; }
button:hover { background: #e8ecf3; }
button:focus-visible, select:focus-visible { outline: 2px solid #2f6fde; outline-offset: 1px; }
.actions { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; margin: 6px 0 2px; }
.empty { color: #5a6375; font-style: italic; }
.message { color: #5a6375; } .message:empty { display: none; }
.error, .message.error { color: #b3261e; } .error { font-weight: 600; } .ok { color: #11612a; }
.badge { display: inline-block; padding: 0 6px; border-radius: 9px; font-size: 0.85em; font-weight: 600; }
.badge.pass { background: #d6f5dd; color: #11612a; } .badge.fail { background: #fbd9d6; color: #8a1c12; }
.badge.inconclusive { background: #fbefc8; color: #6b4e00; } .badge.not-applicable { background: #e8eaf0; color: #4a5163; }
`;

/** The in-page panel's styles, inside its shadow root. */
export const panelStyles = `${shared}
:host { all: initial !important; }
.panel {
  position: fixed; right: 12px; bottom: 12px; z-index: 2147483647;
  width: 460px; max-width: calc(100vw - 24px); max-height: calc(100vh - 24px); overflow: auto;
  box-sizing: border-box; background: #ffffff; color: #1d2330;
  border: 1px solid #c5cbd6; border-radius: 8px; box-shadow: 0 4px 18px rgba(20, 28, 45, 0.22);
  font: 12px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  text-align: left; letter-spacing: normal; text-transform: none; direction: ltr;
}
:where(.panel *) { box-sizing: border-box; font: inherit; letter-spacing: inherit; }
header { display: flex; align-items: center; gap: 8px; padding: 6px 8px; background: #1d2330; color: #ffffff; border-radius: 7px 7px 0 0; }
.panel.collapsed header { border-radius: 7px; }
.title { font-weight: 600; white-space: nowrap; }
.summary { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; color: #c9d3e6; }
.body { padding: 6px 10px 8px; } .panel.collapsed .body { display: none; }
p { margin: 4px 0; }
.label { display: inline-block; min-width: 52px; color: #5a6375; font-weight: 600; }
td.key, td.remaining, td.reset, td.ban { white-space: nowrap; }
td.remaining, td.reset, td.ban { font-variant-numeric: tabular-nums; }
td.remaining.low { color: #9a5b00; font-weight: 600; }
td.remaining.none, td.ban.banned { color: #b3261e; font-weight: 600; }
.recent td { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 11px; white-space: nowrap; padding: 2px 4px; }
.recent td.key { color: #5a6375; } .recent td.status.ok { color: #11612a; }
.recent td.status.failed { color: #b3261e; font-weight: 600; }
h3 { margin: 8px 0 2px; font-size: 12px; font-weight: 600; color: #5a6375; }
button, select { font-size: 12px; }
header button { background: transparent; color: #ffffff; border-color: #55607a; padding: 0; width: 22px; height: 20px; }
header button:hover { background: #2c3548; }
/* A chevron drawn by CSS: no glyph that a system's fonts may lack. */
.toggle::before {
  content: ""; display: block; width: 6px; height: 6px; margin: 3px auto 0;
  border-right: 2px solid currentColor; border-bottom: 2px solid currentColor; transform: rotate(45deg);
}
.panel.collapsed .toggle::before { margin-top: 1px; transform: rotate(-135deg); }
button.lift { margin-left: 6px; padding: 1px 6px; border-color: #b3261e; color: #b3261e; background: #fff5f4; }
`;

/** The QA page's styles, a page of its own. */
export const pageStyles = `${shared}
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d2330; }
h1 { font-size: 1.3rem; margin: 0 0 .3rem; } h2 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
th, td { padding: .25rem .5rem; vertical-align: top; }
button, select, input { font-size: 13px; }
pre { background: #f3f5f9; padding: .5rem; margin: 0; white-space: pre-wrap; }
`;
