import cytoscape from 'cytoscape';
import type { ReportData } from './data.js';
import { byId, el } from './dom.js';

const PROVIDER_COLOURS: Record<string, string> = {
  AWS: '#f59e0b',
  AZURE: '#3b82f6',
  GCP: '#10b981',
  EXTERNAL: '#9ca3af',
};
const SEVERITY_COLOURS = ['#7f1d1d', '#dc2626', '#f97316', '#eab308', '#64748b'];

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
      n[4] & 1 ? 'exposed' : '',
      n[4] & 2 ? 'external' : '',
      n[5] > 0 ? 'flagged' : '',
      onPath.has(i) ? 'attack' : '',
    ]
      .filter(Boolean)
      .join(' ');
    elements.push({
      group: 'nodes',
      data: {
        id: `n${i}`,
        label: n[0],
        colour: PROVIDER_COLOURS[g.providers[n[3]] ?? ''] ?? '#6b7280',
        ring: n[6] >= 0 ? (SEVERITY_COLOURS[n[6]] ?? '#dc2626') : '#ffffff',
      },
      position: { x: n[9], y: n[10] },
      classes,
    });
  });
  const seen = new Set<string>();
  g.edges.forEach(([s, t, type], i) => {
    seen.add(`${s}>${t}`);
    elements.push({
      group: 'edges',
      data: { id: `e${i}`, source: `n${s}`, target: `n${t}`, label: g.edge_types[type] ?? '' },
      classes: pathEdges.has(`${s}>${t}`) ? 'attack' : '',
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
      data: { id: `p${extra++}`, source: `n${s}`, target: `n${t}`, label: 'path' },
      classes: 'attack hop',
    });
  }
  const cy = cytoscape({
    container: byId('graph'),
    elements,
    layout: { name: 'preset' },
    minZoom: 0.02,
    maxZoom: 4,
    // Large estates: draw a cached bitmap while panning or zooming instead of every element.
    textureOnViewport: true,
    hideEdgesOnViewport: g.edges.length > 5000,
    pixelRatio: 1,
    style: [
      {
        selector: 'node',
        style: {
          width: 14,
          height: 14,
          'background-color': 'data(colour)',
          'border-width': 2,
          'border-color': 'data(ring)',
          label: 'data(label)',
          'font-size': 8,
          'min-zoomed-font-size': 10,
          color: '#1f2937',
        },
      },
      { selector: 'node.external', style: { shape: 'diamond', 'background-color': '#9ca3af' } },
      { selector: 'node.exposed', style: { 'border-color': '#f97316', 'border-width': 3 } },
      {
        selector: 'node.attack',
        style: { 'background-color': '#dc2626', width: 20, height: 20, 'z-index': 10 },
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
