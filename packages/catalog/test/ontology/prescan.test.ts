import { describe, expect, it } from 'vitest';
import {
  blankLiteralsAndComments,
  firstKeyword,
  looksLikeUpdate,
} from '../../src/ontology/sparql/prescan.js';

/** The linear pre-scan that rejects SPARQL updates before anything is parsed. */

describe('the update pre-scan', () => {
  it('finds the update keyword after PREFIX and BASE declarations, in any case', () => {
    for (const q of [
      "INSERT DATA { <urn:x> <urn:p> 'x' }",
      'PREFIX x: <http://example.org/#> DELETE WHERE { ?s ?p ?o }',
      'BASE <http://example.org/> PREFIX : <http://example.org/#> clear all',
      'drop graph <urn:g>',
      'LOAD <http://example.org/data.ttl>',
      'WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }',
      'CREATE GRAPH <urn:g>',
      'ADD DEFAULT TO <urn:g>',
      'MOVE DEFAULT TO <urn:g>',
      'COPY DEFAULT TO <urn:g>',
    ]) {
      expect(looksLikeUpdate(q), q).toBe(true);
    }
  });

  it('sees through comments and string literals placed to hide the update', () => {
    expect(looksLikeUpdate('# SELECT ?s WHERE { ?s ?p ?o }\nINSERT DATA { <urn:x> <urn:p> "x" }')).toBe(true);
    expect(
      looksLikeUpdate('PREFIX a: <http://example.org/#SELECT> # "quoted\nDELETE DATA { <urn:x> <urn:p> 1 }'),
    ).toBe(true);
    // A keyword inside a string or a comment is not the query's form.
    expect(looksLikeUpdate('SELECT ?s WHERE { ?s ?p "INSERT DATA" } # DELETE')).toBe(false);
    expect(looksLikeUpdate("SELECT ?s WHERE { ?s ?p '''DROP\nALL''' }")).toBe(false);
  });

  it('keeps a comparison `<` and blanks IRIs holding a #', () => {
    const blanked = blankLiteralsAndComments(
      'SELECT ?x WHERE { ?x <https://cloudg.io/ontology#a> ?n FILTER(?n < 5) }',
    );
    expect(blanked).toContain('FILTER(?n < 5)');
    expect(blanked).not.toContain('cloudg');
    expect(firstKeyword(blanked)).toBe('SELECT');
  });

  it('stays linear on hostile input', () => {
    const hostile = `${'<'.repeat(200_000)}${'"'.repeat(1)}${'#\n'.repeat(100_000)}${"'''".repeat(1)}`;
    // A quadratic scan of these inputs would run for minutes and hit the test's timeout.
    expect(looksLikeUpdate(hostile)).toBe(false);
    expect(looksLikeUpdate(`${'PREFIX a: <urn:a> '.repeat(50_000)}SELECT * WHERE {}`)).toBe(false);
  });
});
