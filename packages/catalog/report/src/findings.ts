import type { FindingRow, ReportData } from './data.js';
import { byId, el } from './dom.js';

/** Rows drawn at once; the filter always runs over every finding. */
const MAX_ROWS = 500;

export interface FindingsView {
  /** Show the findings of one graph node (or every finding again with -1). */
  showNode(node: number): void;
}

/**
 * The findings table: severity and source-tool filters and a text search over title, resource
 * and description, applied together. A row opens its detail, and selects its asset in the graph.
 */
export function renderFindings(data: ReportData, onSelectNode: (node: number) => void): FindingsView {
  const severity = byId<HTMLSelectElement>('filter-severity');
  const tool = byId<HTMLSelectElement>('filter-tool');
  const search = byId<HTMLInputElement>('filter-text');
  const body = byId('findings-body');
  const count = byId('findings-count');
  const detail = byId('finding-detail');
  severity.append(el('option', { value: '' }, 'All severities'));
  data.severities.forEach((s, i) => {
    severity.append(el('option', { value: String(i) }, s));
  });
  tool.append(el('option', { value: '' }, 'All tools'));
  for (const t of [...new Set(data.findings.map((f) => f[3]))].sort())
    tool.append(el('option', { value: t }, t));
  const text = (i: number) => data.texts[i] ?? '';
  const lower = data.texts.map((t) => t.toLowerCase());
  const matches = (f: FindingRow, q: string) =>
    (lower[f[2]] ?? '').includes(q) || f[4].toLowerCase().includes(q) || (lower[f[8]] ?? '').includes(q);
  let nodeFilter = -1;

  const showDetail = (f: FindingRow) => {
    detail.replaceChildren(
      el('h3', {}, text(f[2])),
      el(
        'p',
        {},
        el('b', {}, `${data.severities[f[1]] ?? ''} · risk ${f[6]} · ${f[3]}`),
        f[7] ? ' · suppressed' : '',
      ),
      el('p', {}, 'Resource: ', f[4] || '–'),
      el('p', {}, text(f[8]) || 'No description.'),
      el('p', {}, el('b', {}, 'Remediation: '), text(f[9]) || '–'),
      el('p', {}, 'Frameworks: ', text(f[10]) || '–'),
    );
  };

  const apply = () => {
    const sev = severity.value === '' ? -1 : Number(severity.value);
    const t = tool.value;
    const q = search.value.trim().toLowerCase();
    const rows: Node[] = [];
    let matched = 0;
    data.findings.forEach((f) => {
      if (sev >= 0 && f[1] !== sev) return;
      if (t && f[3] !== t) return;
      if (nodeFilter >= 0 && f[5] !== nodeFilter) return;
      if (q && !matches(f, q)) return;
      matched += 1;
      if (rows.length >= MAX_ROWS) return;
      const sevName = data.severities[f[1]] ?? '';
      const row = el(
        'tr',
        { class: 'finding', 'data-severity': sevName },
        el('td', {}, el('span', { class: `badge sev-${sevName.toLowerCase()}` }, sevName)),
        el('td', {}, text(f[2])),
        el('td', {}, f[4]),
        el('td', {}, f[3]),
        el('td', { class: 'num' }, String(f[6])),
      );
      row.addEventListener('click', () => {
        showDetail(f);
        if (f[5] >= 0) onSelectNode(f[5]);
      });
      rows.push(row);
    });
    body.replaceChildren(...rows);
    const scope = nodeFilter >= 0 ? ` of ${data.graph.nodes[nodeFilter]?.[0] ?? ''}` : '';
    count.textContent = `${matched} of ${data.findings.length} findings${scope}${matched > MAX_ROWS ? ` (first ${MAX_ROWS} shown)` : ''}`;
  };
  severity.addEventListener('change', apply);
  tool.addEventListener('change', apply);
  search.addEventListener('input', apply);
  byId('filter-clear').addEventListener('click', () => {
    severity.value = '';
    tool.value = '';
    search.value = '';
    nodeFilter = -1;
    apply();
  });
  apply();
  return {
    showNode(node) {
      nodeFilter = node;
      apply();
    },
  };
}
