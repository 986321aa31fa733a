import type { ExportSource } from '../caller-dataset.js';
import type { ReportFile } from '../report/files.js';
import { reportData } from './model.js';
import { reportPage } from './page.js';
import { viewerScript } from './viewer-asset.js';

/** `report.html`: the interactive report of the dataset. */
export async function htmlFiles(source: ExportSource, signal: AbortSignal): Promise<ReportFile[]> {
  const viewer = await viewerScript();
  const data = reportData(source.dataset, source.name, signal);
  return [['html', 'report.html', reportPage(data, viewer)]];
}
