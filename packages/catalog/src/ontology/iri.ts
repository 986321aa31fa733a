import { CMR, PREFIXES } from './vocabulary.js';

/**
 * Individual IRIs are `cmr:` plus an asset id, `finding_<id>`, `tag_<key>_<value>` or
 * `compliance_<name>`. Ids are used as they are where IRI syntax allows (ARNs keep their `:` and
 * `/`), and characters an IRI may not hold (space, `<>"{}|\^` and backtick, controls) are
 * percent-encoded, so any id yields an IRI every RDF parser accepts.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be encoded.
const UNSAFE = /[\u0000-\u0020<>"{}|\\^`\u007f]/g;

export function safeLocal(local: string): string {
  return local.replace(UNSAFE, (c) => encodeURIComponent(c));
}

export function resourceIri(local: string): string {
  return CMR + safeLocal(local);
}

/** Tag node name: spaces and `/` become `_`, as the reference writes it. */
export function tagLocal(key: string, value: string): string {
  return `tag_${key}_${value}`.replace(/[\s/]/g, '_');
}

/** Owner / cost centre / monitoring nodes named after the tag value alone. */
export function tagValueLocal(value: string): string {
  return `tag_${value}`.replace(/[\s/]/g, '_');
}

const NAMESPACES = Object.entries(PREFIXES).sort((a, b) => b[1].length - a[1].length);

/** `prefix:name` for an IRI under one of the predefined namespaces, else the IRI unchanged. */
export function compactIri(iri: string): string {
  for (const [prefix, ns] of NAMESPACES) if (iri.startsWith(ns)) return `${prefix}:${iri.slice(ns.length)}`;
  return iri;
}

/**
 * The asset id an individual's IRI names (`cmr:orders-db` or the full IRI, as SPARQL results and
 * the ontology tools show them), or the reference unchanged when it is not one, so an ontology
 * tool's `ref` takes what the ontology hands out.
 */
export function assetIdOfIndividual(ref: string): string {
  const trimmed = ref.trim();
  const local = trimmed.startsWith(CMR)
    ? trimmed.slice(CMR.length)
    : trimmed.startsWith('cmr:')
      ? trimmed.slice(4)
      : null;
  if (local === null || local.length === 0) return ref;
  try {
    return decodeURIComponent(local);
  } catch {
    return local;
  }
}
