import type { ReportData } from './model.js';

/**
 * report.html: one self-contained page (styles, data and the bundled viewer inline, nothing
 * loaded from the network), so it can be mailed, attached to a ticket or opened offline.
 *
 * The data goes in a `<script type="application/json">` block that the viewer parses: it is
 * never evaluated, and every `<` is written as `\u003c` so no value in it (a finding title
 * saying `</script>`) can end the block. The only markup built from data is the page title,
 * escaped; everything else the viewer makes with text nodes.
 */

const CSS = `
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827;background:#f3f4f6}
header{padding:16px 24px;background:#111827;color:#f9fafb}header h1{margin:0 0 4px;font-size:20px}#meta{color:#9ca3af;font-size:12px}
#summary{display:flex;flex-wrap:wrap;gap:8px;padding:12px 24px;background:#1f2937}
.card{min-width:96px;padding:8px 12px;border-radius:6px;background:#374151;color:#f9fafb}.card .value{font-size:20px;font-weight:600}.card .label{font-size:11px;text-transform:uppercase;color:#d1d5db}
.card.warn{background:#9a3412}.sev-critical{background:#7f1d1d;color:#fff}.sev-high{background:#dc2626;color:#fff}.sev-medium{background:#f97316;color:#fff}.sev-low{background:#eab308;color:#111}.sev-info{background:#64748b;color:#fff}
main{display:grid;grid-template-columns:minmax(0,1fr) 320px;gap:16px;padding:16px 24px}
section{background:#fff;border-radius:8px;padding:12px 16px;box-shadow:0 1px 2px rgba(0,0,0,.08)}section h2{margin:0 0 8px;font-size:16px}
#graph{height:560px;border:1px solid #e5e7eb;border-radius:6px;background:#fafafa}
.side{display:flex;flex-direction:column;gap:16px}#paths{margin:0;padding-left:18px;max-height:260px;overflow:auto}#paths li{cursor:pointer;margin-bottom:6px;font-size:12px}
.wide{grid-column:1/-1}.filters{display:flex;flex-wrap:wrap;gap:8px;margin-bottom:8px}.filters input{flex:1;min-width:200px}
.filters input,.filters select,.filters button{padding:6px 8px;border:1px solid #d1d5db;border-radius:4px;font:inherit}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e7eb;vertical-align:top}th{font-size:12px;color:#6b7280}
tr.finding{cursor:pointer}tr.finding:hover{background:#f9fafb}.num{text-align:right;font-variant-numeric:tabular-nums}.fail{color:#b91c1c}
.badge{display:inline-block;padding:1px 6px;border-radius:4px;font-size:11px;font-weight:600}
.scroll{max-height:480px;overflow:auto}#findings-count{color:#6b7280;font-size:12px}
.bar{display:inline-block;width:80px;height:8px;margin-right:6px;background:#fee2e2;border-radius:4px;overflow:hidden;vertical-align:middle}.bar .fill{height:100%;background:#16a34a}
#finding-detail h3,#node-detail h3{margin:0 0 6px;font-size:14px;word-break:break-word}#finding-detail p,#node-detail p{margin:4px 0;word-break:break-word}
`;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON safe inside a script element: no `<` (so no `</script>` or `<!--`), and no U+2028/9. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function reportPage(data: ReportData, viewer: string): string {
  // The bundle holds no `</script`, checked at build; the replacement keeps that true whatever
  // a future bundle contains (inside string literals `<\/` reads the same).
  const script = viewer.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(data.title)}</title>
<style>${CSS}</style>
</head>
<body>
<header><h1>cloudg security report</h1><div id="meta"></div></header>
<div id="summary"></div>
<main>
<section><h2>Estate graph</h2><div id="graph"></div></section>
<div class="side">
<section><h2>Selected asset</h2><div id="node-detail"><p>Click an asset to see it here.</p></div></section>
<section><h2>Attack paths</h2><ol id="paths"></ol></section>
</div>
<section class="wide"><h2>Findings</h2>
<div class="filters"><select id="filter-severity" aria-label="Severity"></select><select id="filter-tool" aria-label="Source tool"></select><input id="filter-text" type="search" placeholder="Search title, resource, description" aria-label="Search"><button id="filter-clear" type="button">Clear</button></div>
<div id="findings-count"></div>
<div class="scroll"><table><thead><tr><th>Severity</th><th>Title</th><th>Resource</th><th>Tool</th><th class="num">Risk</th></tr></thead><tbody id="findings-body"></tbody></table></div>
<div id="finding-detail"></div>
</section>
<section class="wide"><h2>Compliance posture</h2>
<table><thead><tr><th>Framework</th><th class="num">Controls</th><th class="num">Failing</th><th class="num">Passing</th><th>Pass rate</th><th class="num">Open findings</th></tr></thead><tbody id="compliance-body"></tbody></table>
</section>
</main>
<script type="application/json" id="cloudg-data">${scriptJson(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}
