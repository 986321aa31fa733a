import type { Registry } from '@cloudg/core';
import * as z from 'zod';
import { classOf } from '../../ontology/classes.js';
import type { Workspace } from '../../workspace/workspace.js';
import { parseVocabulary } from './parse-vocabulary.js';
import { ASSET_TYPES, assetTypeInfo } from './vocabulary/index.js';

export function registerExplainAssetType(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'explain_asset_type',
    title: 'Explain asset type',
    description:
      'How cloudg models one asset type: its family, a note, the ontology class, the Terraform resource ' +
      'type, whether it is a sensitive data store, its crown-jewel weight in attack paths, whether ' +
      'internet exposure is expected for it, and how many the active dataset holds.',
    category: 'meta',
    sensitivity: 'public',
    capabilities: [],
    input: {
      asset_type: z.string().min(1).describe('An AssetType value, e.g. LAMBDA_FUNCTION.'),
    },
    handler: (ctx, args) => {
      const type = parseVocabulary('asset type', args.asset_type, ASSET_TYPES);
      // The class is the one the ontology gives the type's individuals, whatever the catalogue says.
      const info: Record<string, unknown> = { ...assetTypeInfo(type), ontology_class: `cm:${classOf(type)}` };
      // A count only makes sense when there is data; no dataset is not an error here.
      const workspace = ctx.app;
      if (workspace.activeName !== null) {
        info.in_active_dataset = workspace.get().indexes.byType.get(type)?.length ?? 0;
      }
      return info;
    },
  });
}
