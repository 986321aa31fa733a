import { compactIri } from '../../ontology/iri.js';
import type { QueryOutcome, SparqlTerm } from '../../ontology/sparql/engine.js';
import type { QueryType } from '../../ontology/sparql/guard.js';

/** What a column holds: URIs (blank nodes count as resources), literals, or both. */
export type VariableKind = 'uri' | 'literal' | 'term';

export interface SparqlResult {
  query_type: QueryType;
  answer?: boolean;
  rows: Array<Record<string, string | null>>;
  returned: number;
  truncated: boolean;
  variable_kinds?: Record<string, VariableKind>;
  hint?: string;
}

export const MORE_ROWS_HINT = 'More rows exist: add LIMIT / OFFSET to the query or raise limit.';

function show(term: SparqlTerm, compact: boolean): string {
  if (term.t === 'uri') return compact ? compactIri(term.v) : term.v;
  if (term.t === 'bnode') return `_:${term.v}`;
  return term.v;
}

function kindOf(term: SparqlTerm): VariableKind {
  return term.t === 'literal' ? 'literal' : 'uri';
}

/**
 * The tool's result from the worker's outcome. SELECT rows are keyed by the query's variables
 * (in the query's order; every variable present, unbound ones null), values as strings.
 */
export function shapeResult(
  type: QueryType,
  outcome: QueryOutcome,
  options: { cap: number; compact: boolean; variables: string[] | null },
): SparqlResult {
  if (outcome.kind === 'boolean') {
    return { query_type: type, answer: outcome.answer, rows: [], returned: 0, truncated: false };
  }
  const items = outcome.items.slice(0, options.cap);
  const truncated = outcome.items.length > options.cap || (outcome.more && items.length === options.cap);
  const result: SparqlResult = { query_type: type, rows: [], returned: items.length, truncated };
  if (type === 'SelectQuery') {
    const variables = options.variables ?? [...new Set(items.flatMap((row) => Object.keys(row)))];
    const kinds: Record<string, VariableKind> = {};
    for (const row of items) {
      const out: Record<string, string | null> = {};
      for (const v of variables) {
        const term = row[v];
        out[v] = term === undefined ? null : show(term, options.compact);
        if (term === undefined) continue;
        const k = kindOf(term);
        kinds[v] = kinds[v] === undefined || kinds[v] === k ? k : 'term';
      }
      result.rows.push(out);
    }
    result.variable_kinds = kinds;
  } else {
    for (const row of items) {
      result.rows.push({
        subject: row.subject ? show(row.subject, options.compact) : null,
        predicate: row.predicate ? show(row.predicate, options.compact) : null,
        object: row.object ? show(row.object, options.compact) : null,
      });
    }
    result.variable_kinds = { subject: 'uri', predicate: 'uri', object: 'term' };
  }
  if (truncated) result.hint = MORE_ROWS_HINT;
  return result;
}
