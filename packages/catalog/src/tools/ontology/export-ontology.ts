import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { exportSource } from '../../export/caller-dataset.js';
import { serialiseOntology } from '../../ontology/serialise.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { linkOntology, ONTOLOGY_FORMAT_NAMES, ONTOLOGY_FORMATS, ontologyForCall } from './access.js';

/** `export_ontology`: write the ontology to a file under the workspace output directory. */
export function registerExportOntology(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'export_ontology',
    title: 'Export ontology',
    description:
      'Writes the ontology to <output_dir>/<filename>.<ext> as Turtle (ttl), JSON-LD (jsonld), RDF/XML (rdf) or N-Triples (nt); the extension is added when missing and an existing file is overwritten. Returns path, format, triples and bytes. cloudg://ontology/{format} returns the same content without writing a file.',
    category: 'ontology',
    sensitivity: 'confidential',
    capabilities: ['read_state', 'write_fs'],
    readOnly: false,
    destructive: false,
    idempotent: true,
    openWorld: false,
    input: {
      format: z
        .enum(ONTOLOGY_FORMAT_NAMES as [string, ...string[]])
        .default('turtle')
        .describe('RDF serialisation.'),
      filename: z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,100}$/)
        .default('ontology')
        .describe('File name (no directories); extension added if missing.'),
      dataset: datasetArg(),
    },
    handler: async (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const format = args.format as keyof typeof ONTOLOGY_FORMATS;
      const ext = ONTOLOGY_FORMATS[format].extension;
      const name = args.filename.endsWith(`.${ext}`) ? args.filename : `${args.filename}.${ext}`;
      // Resolved (and checked to stay inside the output directory) before any work is done.
      const path = ctx.app.outputPath(name);
      // The file is content for the caller like a result: it is built from the dataset as the
      // caller's output pipeline shows it (pseudonyms, redactions, fences), as export_report's
      // files are, never from the raw dataset.
      const source = await exportSource(ctx, dataset);
      const { ontology } = await ontologyForCall(ctx, source.dataset);
      const text = await serialiseOntology(ontology, format, ctx.signal);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text, 'utf8');
      linkOntology(ctx, format);
      return {
        dataset: dataset.name,
        path,
        format,
        triples: ontology.size,
        bytes: Buffer.byteLength(text, 'utf8'),
      };
    },
  });
}
