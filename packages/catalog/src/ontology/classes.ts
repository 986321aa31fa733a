import { ASSET_TYPES, assetTypeInfo } from '../tools/meta/vocabulary/index.js';

/**
 * The OWL class of each asset type. The asset type catalogue (meta vocabulary) names most
 * classes; the reference fixes a few itself, and those win here: EC2, VIRTUAL_MACHINE and
 * GCE_INSTANCE are all `cm:ComputeInstance` (the catalogue calls them `cm:VirtualMachine`).
 * A type the catalogue does not know gets the CamelCase of its enum name, as the reference does.
 */
const REFERENCE_CLASSES: Readonly<Record<string, string>> = {
  EC2: 'ComputeInstance',
  VIRTUAL_MACHINE: 'ComputeInstance',
  GCE_INSTANCE: 'ComputeInstance',
};

function camelCase(type: string): string {
  return type
    .split(/[_\s-]+/)
    .filter((w) => w.length > 0)
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    .join('');
}

const cache = new Map<string, string>();

/** Local name of the class of an asset type (`RDS_INSTANCE` -> `RelationalDatabase`). */
export function classOf(assetType: string): string {
  let name = cache.get(assetType);
  if (name === undefined) {
    const fromCatalogue = assetTypeInfo(assetType)?.ontology_class;
    name =
      REFERENCE_CLASSES[assetType] ??
      (fromCatalogue?.startsWith('cm:') ? fromCatalogue.slice(3) : undefined) ??
      (camelCase(assetType) || 'CloudResource');
    cache.set(assetType, name);
  }
  return name;
}

/** Classes of every catalogued asset type plus the types a dataset adds, each once, sorted. */
export function schemaClasses(extraTypes: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const t of ASSET_TYPES) names.add(classOf(t));
  for (const t of extraTypes) names.add(classOf(t));
  return [...names].sort();
}
