import { renderCompliance } from './compliance.js';
import { readData } from './data.js';
import { renderFindings } from './findings.js';
import { renderGraph } from './graph.js';
import { renderSummary } from './summary.js';

/**
 * The interactive report: summary counters, the estate graph, the findings table and the
 * compliance posture, all from the data block the exporter embedded. Nothing is fetched.
 */
function start(): void {
  const data = readData();
  document.title = data.title;
  renderSummary(data);
  renderCompliance(data);
  let graphSelect: (node: number) => void = () => {};
  const findings = renderFindings(data, (node) => graphSelect(node));
  const graph = renderGraph(data, (node) => findings.showNode(node));
  graphSelect = (node) => graph.select(node);
  // For tests and anyone scripting the page: the Cytoscape instance, once drawn.
  (window as unknown as { cloudgReport: unknown }).cloudgReport = { cy: graph.cy, ready: true };
  document.body.setAttribute('data-ready', 'true');
}

start();
