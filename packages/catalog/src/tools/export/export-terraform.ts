import type { Registry } from '@cloudg/core';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { exportSource } from '../../export/caller-dataset.js';
import { renderTerraform } from '../../export/terraform/render.js';
import { exportDirectory, writeExportFiles } from '../../export/write-files.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { assetTypesArg, refsArg, selectAssets, subdirArg } from './args.js';

/**
 * `export_terraform`: a Terraform recreation of the selected assets in `<output_dir>/<subdir>`.
 *
 * The reference writes Terraform's JSON syntax (`*.tf.json`); cloudg writes the native HCL
 * syntax (`provider.tf`, `variables.tf`, `main.tf`), which people review and edit, and which
 * the tests check with HashiCorp's own HCL parser. The `files` keys are the reference's.
 */
export function registerExportTerraform(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'export_terraform',
    title: 'Export Terraform',
    description:
      'Write a Terraform (HCL) recreation of the assets (provider.tf, variables.tf, main.tf and an import_commands.sh) into the output directory, <output_dir>/<subdir>. Asset types without a mapping are skipped (terraform_preview lists them); edges between written assets become references (vpc_id, subnet_id, security groups). Returns output_dir, resources (assets selected) and files. Review the result before terraform plan.',
    category: 'export',
    sensitivity: 'confidential',
    capabilities: ['read_state', 'write_fs'],
    readOnly: false,
    destructive: false,
    idempotent: true,
    openWorld: false,
    input: {
      subdir: subdirArg('terraform'),
      refs: refsArg(),
      asset_types: assetTypesArg(),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      // Checked before any work, so a refused path costs nothing.
      const dir = exportDirectory(ctx.app, args.subdir);
      const assets = selectAssets(dataset, args.refs, args.asset_types);
      const selected = new Set(assets.map((a) => a.id));
      // Edges with at least one end among the selected assets, as the reference passes them.
      const edges = dataset.edges.filter((e) => selected.has(e.source_id) || selected.has(e.target_id));
      const source = await exportSource(ctx, dataset, { assets, edges });
      const tf = renderTerraform(source.dataset.assets, source.dataset.edges, ctx.signal);
      const files = await writeExportFiles(
        dir,
        [
          ['provider', 'provider.tf', tf.provider],
          ['variables', 'variables.tf', tf.variables],
          ['main', 'main.tf', tf.main],
          ['import_commands', 'import_commands.sh', tf.import_commands],
        ],
        ctx.signal,
      );
      return { dataset: dataset.name, output_dir: dir, resources: assets.length, files };
    },
  });
}
