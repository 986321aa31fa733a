import cytoscape from 'cytoscape';
import type { ReportData } from './data.js';
import { byId, el } from './dom.js';
import { drawEdgeUnderlay } from './edge-underlay.js';

/** Colours by class, not per-element data: Cytoscape shares the computed style of elements with equal classes. */
const PROVIDER_CLASSES: Record<string, string> = {
  AWS: 'aws',
  AZURE: 'azure',
  GCP: 'gcp',
  EXTERNAL: 'external',
};
const SEVERITY_CLASSES = ['sev0', 'sev1', 'sev2', 'sev3', 'sev4'];

/** Above this many edges the plain ones are drawn on a canvas underlay instead of as elements. */
const ELEMENT_EDGES = 2000;

export interface GraphView {
  select(node: number): void;
  cy: cytoscape.Core;
}

/**
 * The estate drawn with Cytoscape.js at the positions the exporter computed (preset layout: no
 * layout work in the browser). Attack-path nodes and edges carry the `attack` class; clicking a
 * node shows its detail and narrows the findings table to it.
 */
export function renderGraph(data: ReportData, onNode: (node: number) => void): GraphView {
  const g = data.graph;
  const onPath = new Set<number>();
  const pathEdges = new Set<string>();
  for (const p of data.paths) {
    p.nodes.forEach((n, i) => {
      onPath.add(n);
      const next = p.nodes[i + 1];
      if (next !== undefined) pathEdges.add(`${n}>${next}`);
    });
  }
  const elements: cytoscape.ElementDefinition[] = [];
  g.nodes.forEach((n, i) => {
    const classes = [
      PROVIDER_CLASSES[g.providers[n[3]] ?? ''] ?? 'other',
      n[6] >= 0 ? (SEVERITY_CLASSES[n[6]] ?? '') : '',
      n[4] & 1 ? 'exposed' : '',
      n[4] & 2 ? 'external' : '',
      n[5] > 0 ? 'flagged' : '',
      onPath.has(i) ? 'attack' : '',
    ]
      .filter(Boolean)
      .join(' ');
    elements.push({
      group: 'nodes',
      data: { id: `n${i}`, label: n[0] },
      position: { x: n[9], y: n[10] },
      classes,
    });
  });
  // Attack-path edges are always elements; the others too on a small estate, else lines on the
  // underlay (edge-underlay.ts).
  const underlay = g.edges.length > ELEMENT_EDGES;
  const seen = new Set<string>();
  const lines: number[] = [];
  g.edges.forEach(([s, t, type], i) => {
    const key = `${s}>${t}`;
    seen.add(key);
    const onAttackPath = pathEdges.has(key);
    if (underlay && !onAttackPath) {
      const a = g.nodes[s];
      const b = g.nodes[t];
      if (a && b) lines.push(a[9], a[10], b[9], b[10]);
      return;
    }
    elements.push({
      group: 'edges',
      data: { id: `e${i}`, source: `n${s}`, target: `n${t}`, type: g.edge_types[type] ?? '' },
      classes: onAttackPath ? 'attack' : '',
    });
  });
  // A path hop with no drawn edge that way (a flow hop the other way round, an identity pivot)
  // still gets a highlighted connector, so every path reads as one line.
  let extra = 0;
  for (const key of pathEdges) {
    if (seen.has(key)) continue;
    const [s, t] = key.split('>');
    elements.push({
      group: 'edges',
      data: { id: `p${extra++}`, source: `n${s}`, target: `n${t}`, type: 'path' },
      classes: 'attack hop',
    });
  }
  const small = g.nodes.length <= 500;
  const cy = cytoscape({
    container: byId('graph'),
    elements,
    layout: { name: 'preset' },
    minZoom: 0.02,
    maxZoom: 4,
    // Large estates: draw a cached bitmap while panning or zooming instead of every element.
    textureOnViewport: true,
    // Positions come from the export; the underlay's lines assume nodes stay where they are.
    autoungrabify: true,
    pixelRatio: 1,
    // Labels only where they help (path nodes, the selection, small estates): measuring thousands
    // of labels is most of what opening a large report would cost.
    style: [
      {
        selector: 'node',
        style: {
          width: 14,
          height: 14,
          'background-color': '#6b7280',
          'border-width': 2,
          'border-color': '#ffffff',
        },
      },
      { selector: 'node.aws', style: { 'background-color': '#f59e0b' } },
      { selector: 'node.azure', style: { 'background-color': '#3b82f6' } },
      { selector: 'node.gcp', style: { 'background-color': '#10b981' } },
      { selector: 'node.external', style: { shape: 'diamond', 'background-color': '#9ca3af' } },
      { selector: 'node.sev0', style: { 'border-color': '#7f1d1d' } },
      { selector: 'node.sev1', style: { 'border-color': '#dc2626' } },
      { selector: 'node.sev2', style: { 'border-color': '#f97316' } },
      { selector: 'node.sev3', style: { 'border-color': '#eab308' } },
      { selector: 'node.sev4', style: { 'border-color': '#64748b' } },
      { selector: 'node.exposed', style: { 'border-color': '#f97316', 'border-width': 3 } },
      {
        selector: 'node.attack',
        style: { 'background-color': '#dc2626', width: 20, height: 20, 'z-index': 10 },
      },
      {
        selector: small ? 'node' : 'node.attack, node:selected',
        style: { label: 'data(label)', 'font-size': 8, 'min-zoomed-font-size': 6, color: '#1f2937' },
      },
      {
        selector: 'node:selected',
        style: { 'border-color': '#111827', 'border-width': 4, width: 24, height: 24 },
      },
      {
        selector: 'edge',
        style: { width: 1, 'line-color': '#cbd5e1', 'curve-style': 'haystack', opacity: 0.6 },
      },
      {
        selector: 'edge.attack',
        style: {
          width: 3,
          'line-color': '#dc2626',
          opacity: 1,
          'curve-style': 'straight',
          'target-arrow-shape': 'triangle',
          'target-arrow-color': '#dc2626',
          'z-index': 9,
        },
      },
      { selector: 'edge.hop', style: { 'line-style': 'dashed' } },
    ],
  });
  if (underlay) drawEdgeUnderlay(cy, Float64Array.from(lines));
  const detail = byId('node-detail');
  const show = (i: number) => {
    const n = g.nodes[i];
    if (!n) return;
    detail.replaceChildren(
      el('h3', {}, n[0]),
      el('p', {}, `${g.types[n[2]] ?? ''} · ${g.providers[n[3]] ?? ''}${n[7] ? ` · ${n[7]}` : ''}`),
      el('p', {}, `Account: ${n[8] || '–'}`),
      el('p', {}, `Id: ${n[1]}`),
      el(
        'p',
        {},
        `${n[5]} open findings${n[4] & 1 ? ' · internet-exposed' : ''}${onPath.has(i) ? ' · on an attack path' : ''}`,
      ),
    );
    detail.setAttribute('data-node', String(i));
  };
  cy.on('tap', 'node', (event) => {
    const i = Number(String(event.target.id()).slice(1));
    show(i);
    onNode(i);
  });
  cy.on('tap', (event) => {
    if (event.target === cy) {
      detail.replaceChildren(el('p', {}, 'Click an asset to see it here.'));
      detail.removeAttribute('data-node');
      onNode(-1);
    }
  });
  const paths = byId('paths');
  if (data.paths.length === 0)
    paths.append(el('li', {}, 'No path from the internet to a crown-jewel asset.'));
  for (const p of data.paths) {
    const names = p.nodes.map((n) => g.nodes[n]?.[0] ?? '?').join(' → ');
    const item = el('li', {}, el('b', {}, `score ${p.score}`), ` ${names}`);
    item.addEventListener('click', () => {
      const ids = p.nodes.map((n) => `#n${n}`).join(',');
      cy.elements().unselect();
      const chosen = cy.$(ids);
      chosen.select();
      cy.fit(chosen, 80);
    });
    paths.append(item);
  }
  return {
    cy,
    select(i) {
      const node = cy.$(`#n${i}`);
      cy.elements().unselect();
      node.select();
      show(i);
      cy.animate({ center: { eles: node }, zoom: Math.max(cy.zoom(), 1) }, { duration: 200 });
    },
  };
}
