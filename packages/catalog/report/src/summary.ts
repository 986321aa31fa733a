import type { ReportData } from './data.js';
import { byId, el } from './dom.js';

/** The header counters. */
export function renderSummary(data: ReportData): void {
  const s = data.summary;
  const cards: [string, number, string][] = [
    ['Assets', s.assets, ''],
    ['Relationships', s.edges, ''],
    ['Internet-exposed', s.internet_exposed, 'warn'],
    ['Open findings', s.findings_open, ''],
    ...data.severities.map((sev): [string, number, string] => [
      sev,
      s.by_severity[sev] ?? 0,
      `sev-${sev.toLowerCase()}`,
    ]),
    ['Attack paths', s.attack_paths, 'warn'],
  ];
  const box = byId('summary');
  for (const [label, value, cls] of cards) {
    box.append(
      el(
        'div',
        { class: `card ${cls}` },
        el('div', { class: 'value' }, String(value)),
        el('div', { class: 'label' }, label),
      ),
    );
  }
  byId('meta').textContent =
    `Dataset ${data.dataset} · generated ${data.generated_at} · providers ${s.providers.join(', ') || 'none'} · ${s.suppressed} suppressed findings not counted`;
}
