import type { ReportData } from './data.js';
import { byId, el } from './dom.js';

/** One row per framework: controls evaluated, failing and passing, pass rate, open findings. */
export function renderCompliance(data: ReportData): void {
  const body = byId('compliance-body');
  if (data.compliance.length === 0) {
    body.append(el('tr', {}, el('td', { colspan: '6' }, 'No compliance data in this dataset.')));
    return;
  }
  for (const c of data.compliance) {
    const rate = c.pass_rate === null ? '–' : `${c.pass_rate}%`;
    const bar = el(
      'div',
      { class: 'bar' },
      el('div', { class: 'fill', style: `width:${c.pass_rate ?? 0}%` }),
    );
    body.append(
      el(
        'tr',
        {},
        el('td', {}, c.framework),
        el('td', { class: 'num' }, String(c.controls_evaluated)),
        el('td', { class: 'num fail' }, String(c.controls_failing)),
        el('td', { class: 'num' }, String(c.controls_passing)),
        el('td', {}, bar, rate),
        el('td', { class: 'num' }, String(c.open_findings)),
      ),
    );
  }
}
