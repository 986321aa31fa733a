/**
 * The embedded report data as the viewer reads it. Mirrors ReportData in
 * src/export/html/model.ts (the exporter's side of the contract); the viewer is bundled on its
 * own, so it restates the shape instead of importing server code.
 */
export type NodeRow = [
  label: string,
  id: string,
  type: number,
  provider: number,
  flags: number,
  openFindings: number,
  worst: number,
  region: string,
  account: string,
  x: number,
  y: number,
];

/** Title, description, remediation and frameworks are indexes into `ReportData.texts`. */
export type FindingRow = [
  id: string,
  severity: number,
  title: number,
  tool: string,
  resource: string,
  node: number,
  risk: number,
  suppressed: boolean,
  description: number,
  remediation: number,
  frameworks: number,
];

export interface ReportData {
  title: string;
  dataset: string;
  generated_at: string;
  summary: {
    assets: number;
    edges: number;
    internet_exposed: number;
    findings_total: number;
    findings_open: number;
    suppressed: number;
    attack_paths: number;
    providers: string[];
    by_severity: Record<string, number>;
  };
  severities: string[];
  graph: {
    types: string[];
    providers: string[];
    edge_types: string[];
    nodes: NodeRow[];
    edges: [number, number, number][];
    groups: { label: string; x: number; y: number; radius: number }[];
  };
  paths: { nodes: number[]; labels: string[]; score: number }[];
  findings: FindingRow[];
  texts: string[];
  compliance: {
    framework: string;
    controls_evaluated: number;
    controls_failing: number;
    controls_passing: number;
    pass_rate: number | null;
    open_findings: number;
    affected_assets: number;
  }[];
}

/** Read the data block the exporter wrote into the page (JSON, never evaluated as script). */
export function readData(): ReportData {
  const el = document.getElementById('cloudg-data');
  if (!el?.textContent) throw new Error('report data missing');
  return JSON.parse(el.textContent) as ReportData;
}
