/**
 * The widget's styles, adopted by its shadow root as a constructed style sheet: a site's CSP
 * (`style-src` without `'unsafe-inline'`) does not apply to it, and the site's styles do not reach
 * in. Themed through custom properties a site sets on `treeagent-widget` (or the options).
 */
export const WIDGET_CSS = `
:host {
  --treeagent-accent: #0b5cad;
  --treeagent-accent-text: #ffffff;
  --treeagent-surface: #ffffff;
  --treeagent-text: #1a1d21;
  --treeagent-muted: #4d5560;
  --treeagent-border: #d5d9de;
  --treeagent-radius: 14px;
  --treeagent-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  all: initial;
  font-family: var(--treeagent-font);
}
* { box-sizing: border-box; }
.root { position: fixed; bottom: 20px; right: 20px; z-index: 2147483000; font: 15px/1.45 var(--treeagent-font); color: var(--treeagent-text); }
.root[data-position="left"] { right: auto; left: 20px; }
.launcher { position: relative; display: grid; place-items: center; width: 56px; height: 56px; border: 0; border-radius: 50%; background: var(--treeagent-accent); color: var(--treeagent-accent-text); cursor: pointer; box-shadow: 0 4px 14px rgb(0 0 0 / 0.25); }
.launcher svg { width: 26px; height: 26px; }
/* Two rings, white inside dark: one of them stands out on any background (the accent colour too). */
.launcher:focus-visible, button:focus-visible, textarea:focus-visible, a:focus-visible, summary:focus-visible { outline: 2px solid #fff; outline-offset: 0; box-shadow: 0 0 0 5px #1a1d21; }
.badge { position: absolute; top: -4px; right: -4px; min-width: 22px; height: 22px; padding: 0 6px; border-radius: 11px; background: #b3261e; color: #fff; font-size: 12px; font-weight: 700; line-height: 22px; text-align: center; }
.panel { position: absolute; bottom: 70px; right: 0; display: flex; flex-direction: column; width: min(380px, calc(100vw - 40px)); height: min(600px, calc(100vh - 110px)); border: 1px solid var(--treeagent-border); border-radius: var(--treeagent-radius); background: var(--treeagent-surface); box-shadow: 0 12px 40px rgb(0 0 0 / 0.22); overflow: hidden; animation: rise 0.18s ease-out; }
.root[data-position="left"] .panel { right: auto; left: 0; }
.panel[hidden], .badge[hidden] { display: none; }
@keyframes rise { from { opacity: 0; transform: translateY(8px); } }
@media (prefers-reduced-motion: reduce) { .panel { animation: none; } }
@media (max-width: 480px) {
  .root { bottom: 12px; right: 12px; }
  .panel { position: fixed; inset: 0; width: 100vw; height: 100dvh; border-radius: 0; border: 0; }
  /* The panel fills the screen: the header's close button closes it, the launcher would cover Send. */
  .root.is-open .launcher { display: none; }
}
header { display: flex; align-items: center; gap: 8px; padding: 10px 12px; background: var(--treeagent-accent); color: var(--treeagent-accent-text); }
header h2 { flex: 1; margin: 0; font-size: 16px; font-weight: 650; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.avatar { width: 28px; height: 28px; border-radius: 50%; object-fit: cover; }
header button { min-width: 36px; height: 36px; padding: 0 10px; border: 1px solid rgb(255 255 255 / 0.6); border-radius: 8px; background: transparent; color: inherit; font: inherit; font-size: 13px; cursor: pointer; }
.log { flex: 1; overflow-y: auto; padding: 14px 12px; }
.msg { max-width: 85%; margin: 0 0 10px; padding: 8px 12px; border-radius: 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg--user { margin-left: auto; background: var(--treeagent-accent); color: var(--treeagent-accent-text); }
/* Not sent (the error under it says why, and offers Retry). */
.msg--failed { opacity: 0.6; }
.msg--assistant, .msg--operator { background: #eef1f4; }
.msg--system { max-width: 100%; background: none; color: var(--treeagent-muted); font-size: 13px; text-align: center; }
.author { display: block; color: var(--treeagent-muted); font-size: 12px; font-weight: 600; }
.options { display: flex; flex-wrap: wrap; gap: 6px; margin: -4px 0 10px; }
.option { min-height: 36px; padding: 6px 12px; border: 1px solid var(--treeagent-accent); border-radius: 999px; background: var(--treeagent-surface); color: var(--treeagent-accent); font: inherit; font-size: 14px; cursor: pointer; }
.option:disabled { opacity: 0.55; cursor: default; }
.error { margin: 0 0 10px; padding: 8px 12px; border: 1px solid #b3261e; border-radius: 10px; color: #8c1d18; font-size: 14px; }
.error button { margin-left: 8px; min-height: 32px; border: 1px solid currentColor; border-radius: 8px; background: none; color: inherit; font: inherit; cursor: pointer; }
.typing { margin: 0; padding: 0 12px 4px; color: var(--treeagent-muted); font-size: 13px; }
.handoff { margin: 0; padding: 6px 12px; border-top: 1px solid var(--treeagent-border); background: #eef1f4; color: var(--treeagent-text); font-size: 13px; }
.typing[hidden], .handoff[hidden] { display: none; }
form { display: flex; gap: 8px; padding: 10px 12px; border-top: 1px solid var(--treeagent-border); }
.msg a { color: inherit; }
.msg code { font-family: ui-monospace, monospace; font-size: 13px; }
.msg time { display: block; margin-top: 2px; font-size: 11px; opacity: 0.8; text-align: right; }
.files { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0 0; padding: 0; list-style: none; }
.file { min-height: 32px; padding: 4px 10px; border: 1px solid var(--treeagent-border); border-radius: 8px; background: var(--treeagent-surface); color: var(--treeagent-text); font: inherit; font-size: 13px; cursor: pointer; white-space: normal; text-align: left; }
.text .file { margin: 2px 0; }
.sources { margin-top: 6px; font-size: 13px; }
.sources summary { cursor: pointer; color: var(--treeagent-muted); }
.sources ol { margin: 4px 0 0; padding-left: 18px; }
.source-content { display: block; color: var(--treeagent-muted); }
.pending { display: flex; flex-direction: column; gap: 4px; margin: 0; padding: 6px 12px 0; list-style: none; font-size: 13px; }
.pending:empty { display: none; }
.pending li { display: flex; align-items: center; gap: 8px; }
.pending .name { flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.pending [data-status="failed"] .status { color: #8c1d18; }
.pending .remove { min-width: 32px; min-height: 32px; border: 1px solid var(--treeagent-border); border-radius: 8px; background: none; color: inherit; font: inherit; cursor: pointer; }
.hint { margin: 0; padding: 0 12px; color: #8c1d18; font-size: 13px; }
.hint:empty { display: none; }
.attach { display: grid; place-items: center; width: 40px; border: 1px solid var(--treeagent-border); border-radius: 10px; background: var(--treeagent-surface); color: var(--treeagent-muted); cursor: pointer; }
.attach svg { width: 20px; height: 20px; }
textarea { flex: 1; min-height: 40px; max-height: 120px; padding: 9px 10px; border: 1px solid var(--treeagent-border); border-radius: 10px; color: var(--treeagent-text); background: var(--treeagent-surface); font: inherit; font-size: 16px; resize: none; }
form .send { min-width: 64px; border: 0; border-radius: 10px; background: var(--treeagent-accent); color: var(--treeagent-accent-text); font: inherit; font-weight: 600; cursor: pointer; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.rate { display: grid; gap: 6px; margin: 8px 0; padding: 10px; border: 1px solid var(--treeagent-border); border-radius: 10px; }
.rate-question { margin: 0; font-weight: 600; }
.rate [role="group"] { display: flex; gap: 6px; }
.rate-value { min-width: 36px; min-height: 36px; border: 1px solid var(--treeagent-border); border-radius: 18px; background: var(--treeagent-surface); color: var(--treeagent-text); font: inherit; cursor: pointer; }
.rate-value[aria-pressed="true"] { background: var(--treeagent-accent); color: var(--treeagent-accent-text); border-color: var(--treeagent-accent); }
.rate textarea { font: inherit; padding: 6px 8px; border: 1px solid var(--treeagent-border); border-radius: 8px; resize: vertical; }
.rate-send { justify-self: start; padding: 6px 14px; border: 0; border-radius: 8px; background: var(--treeagent-accent); color: var(--treeagent-accent-text); font: inherit; cursor: pointer; }
.rate-problem { margin: 0; color: #b3261e; }
.rate-problem[hidden] { display: none; }
`;
