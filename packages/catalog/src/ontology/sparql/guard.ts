import { InvalidArgumentsError } from '@cloudg/core';
import type { Query, SparqlQuery } from 'sparqljs';
import sparqljs from 'sparqljs';
import { PREFIXES } from '../vocabulary.js';
import { looksLikeUpdate } from './prescan.js';

/**
 * What `sparql_query` accepts: one read-only query over the dataset's own graph. The pre-scan
 * rejects updates before anything is parsed; sparqljs then parses the query (with the predefined
 * prefixes), and the parsed form is checked for FROM / FROM NAMED and SERVICE anywhere in it,
 * EXISTS filters and subqueries included. The query that runs is the parsed one written back by
 * sparqljs's generator, with the row cap folded into its LIMIT.
 */

export type QueryType = 'SelectQuery' | 'AskQuery' | 'ConstructQuery' | 'DescribeQuery';

export interface CheckedQuery {
  type: QueryType;
  /** The text to run: the parsed query regenerated, prefixes declared, LIMIT at most cap + 1. */
  text: string;
  /** SELECT variables in order, or null for `SELECT *` and the other forms. */
  variables: string[] | null;
}

export const UPDATE_REJECTED =
  'Only read-only queries are allowed (SELECT, ASK, CONSTRUCT, DESCRIBE); SPARQL UPDATE is rejected.';
export const FROM_REJECTED =
  "FROM / FROM NAMED clauses are not allowed (they would load external data). Query the dataset's graph directly.";
export const SERVICE_REJECTED = 'SERVICE (federated queries to remote endpoints) is not allowed.';
const PARSE_TAIL =
  ' Only SELECT / ASK / CONSTRUCT / DESCRIBE are allowed; prefixes cm:, cmr:, cmp:, rdf:, rdfs:, owl:, xsd: are predefined.';

const TYPES: Readonly<Record<Query['queryType'], QueryType>> = {
  SELECT: 'SelectQuery',
  ASK: 'AskQuery',
  CONSTRUCT: 'ConstructQuery',
  DESCRIBE: 'DescribeQuery',
};

interface ParseErrorHash {
  expected?: string[];
  loc?: { first_line?: number; first_column?: number };
  line?: number;
  token?: string;
  text?: string;
}

/**
 * The parse error told from the parser's structured report: position and expected token kinds
 * in the text, the offending token in `data` (the message never quotes the caller's query).
 */
function parseError(error: unknown): InvalidArgumentsError {
  const hash = ((error as { hash?: ParseErrorHash }).hash ?? {}) as ParseErrorHash;
  const line = hash.loc?.first_line ?? (hash.line === undefined ? undefined : hash.line + 1);
  const column = hash.loc?.first_column === undefined ? undefined : hash.loc.first_column + 1;
  const where =
    line === undefined ? '' : ` at line ${line}${column === undefined ? '' : `, column ${column}`}`;
  const expected = (hash.expected ?? [])
    .map((e) => e.replace(/^'|'$/g, ''))
    .filter((e) => /^[A-Z_]+$/.test(e) && e !== 'EOF')
    .slice(0, 8);
  const wanted = expected.length ? `: expected ${expected.join(', ')}` : '';
  const fallback = error instanceof Error && !hash.expected ? `: ${error.message.split('\n')[0]}` : '';
  return new InvalidArgumentsError(`SPARQL parse error${where}${wanted || fallback}.${PARSE_TAIL}`, {
    data: { line: line ?? null, column: column ?? null, found: hash.text ?? hash.token ?? null },
  });
}

/** Whether a parsed tree holds a node of `type` anywhere (a linear walk over its objects). */
function contains(node: unknown, type: string): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if ((current as { type?: unknown }).type === type) return true;
    for (const value of Object.values(current))
      if (value !== null && typeof value === 'object') stack.push(value);
  }
  return false;
}

function hasFrom(node: unknown): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    const from = (current as { from?: { default?: unknown[]; named?: unknown[] } }).from;
    if (from && ((from.default?.length ?? 0) > 0 || (from.named?.length ?? 0) > 0)) return true;
    for (const value of Object.values(current))
      if (value !== null && typeof value === 'object') stack.push(value);
  }
  return false;
}

/** Check a query and prepare it to run with a row cap of `cap`. Throws -32602 errors. */
export function checkQuery(query: string, cap: number): CheckedQuery {
  if (looksLikeUpdate(query)) throw new InvalidArgumentsError(UPDATE_REJECTED);
  let parsed: SparqlQuery;
  try {
    parsed = new sparqljs.Parser({ prefixes: { ...PREFIXES } }).parse(query);
  } catch (error) {
    throw parseError(error);
  }
  if (parsed.type === 'update') throw new InvalidArgumentsError(UPDATE_REJECTED);
  if (hasFrom(parsed)) throw new InvalidArgumentsError(FROM_REJECTED);
  if (contains(parsed, 'service')) throw new InvalidArgumentsError(SERVICE_REJECTED);
  // Fold the cap into LIMIT so the engine stops producing solutions after cap + 1 of them
  // (one more than the cap tells whether rows were left out).
  if (parsed.queryType === 'SELECT' || parsed.queryType === 'CONSTRUCT') {
    const modified = parsed as { limit?: number };
    if (modified.limit === undefined || modified.limit > cap + 1) modified.limit = cap + 1;
  }
  const variables =
    parsed.queryType === 'SELECT' &&
    !parsed.variables.some((v) => 'termType' in v && v.termType === 'Wildcard')
      ? parsed.variables.map((v) => ('variable' in v ? v.variable.value : v.value))
      : null;
  return {
    type: TYPES[parsed.queryType],
    text: new sparqljs.Generator({ allPrefixes: true }).stringify(parsed),
    variables,
  };
}
