import type { Registry } from '@cloudg/core';
import type { Workspace } from '../../workspace/workspace.js';
import { registerExportReport } from './export-report.js';
import { registerExportTerraform } from './export-terraform.js';
import { registerTerraformPreview } from './terraform-preview.js';

/**
 * Register the export tools, in catalog order: terraform_preview, export_terraform,
 * export_report. The writers write under the workspace output directory only, and write what
 * the caller may see: the dataset after the caller's output pipeline (src/export).
 */
export function registerExportTools(registry: Registry<Workspace>): void {
  registerTerraformPreview(registry);
  registerExportTerraform(registry);
  registerExportReport(registry);
}
