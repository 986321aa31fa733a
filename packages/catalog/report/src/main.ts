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
  performance.mark('cloudg:start');
  const data = readData();
  performance.mark('cloudg:data');
  document.title = data.title;
  renderSummary(data);
  renderCompliance(data);
  let graphSelect: (node: number) => void = () => {};
  const findings = renderFindings(data, (node) => graphSelect(node));
  performance.mark('cloudg:tables');
  const graph = renderGraph(data, (node) => findings.showNode(node));
  performance.mark('cloudg:graph');
  graphSelect = (node) => graph.select(node);
  // For tests and anyone scripting the page: the Cytoscape instance, once drawn.
  (window as unknown as { cloudgReport: unknown }).cloudgReport = { cy: graph.cy, ready: true };
  document.body.setAttribute('data-ready', 'true');
  // The first frame with the graph in it: what "opened" means for the timings in bench/export.ts.
  requestAnimationFrame(() => setTimeout(() => performance.mark('cloudg:painted'), 0));
}

start();
