/** The explorer page's stylesheet, served as `{prefix}/_explorer/explorer.css` (see explorer-script.ts for why as text). System fonts only: nothing is fetched. */
export const EXPLORER_STYLE = `:root { color-scheme: light; --line: #d0d7de; --muted: #57606a; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #fff; }
header { display: flex; align-items: baseline; gap: 2rem; padding: 0.8rem 1.5rem; border-bottom: 1px solid var(--line); background: #f6f8fa; position: sticky; top: 0; z-index: 10; }
header h1 { font-size: 1.2rem; margin: 0; }
header nav a { margin-right: 1rem; color: var(--accent); text-decoration: none; }
main { padding: 0 1.5rem 3rem; }
section { margin-top: 1.5rem; }
h2 { font-size: 1.1rem; border-bottom: 1px solid var(--line); padding-bottom: 0.3rem; }
.note { margin: 1rem 1.5rem 0; padding: 0.6rem 0.9rem; background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; }
.model { display: grid; grid-template-columns: minmax(14rem, 22rem) 1fr; gap: 1.5rem; align-items: start; }
#classes { margin: 0; padding-left: 1.1rem; }
#classes li { margin: 0.2rem 0; }
#classes small { color: var(--muted); }
#diagram { overflow: auto; border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem; max-height: 42rem; }
#diagram svg { max-width: 100%; height: auto; }
pre.mermaid { margin: 0; font-size: 12px; }
.controls { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin-bottom: 0.5rem; }
.controls input[type="number"] { width: 5rem; }
#token { width: 22rem; }
textarea { width: 100%; font: 14px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; padding: 0.5rem; border: 1px solid var(--line); border-radius: 6px; }
button { font: inherit; padding: 0.25rem 0.9rem; }
#error { background: #ffebe9; border: 1px solid #ff8182; border-radius: 6px; padding: 0.6rem 0.9rem; font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; }
#status { color: var(--muted); }
.table { overflow: auto; max-height: 32rem; }
#results { border-collapse: collapse; font-size: 13px; }
#results th, #results td { border: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; max-width: 28rem; overflow-wrap: break-word; }
#results th { background: #f6f8fa; position: sticky; top: 0; white-space: nowrap; }
@media (max-width: 50rem) { .model { grid-template-columns: 1fr; } }
`;
