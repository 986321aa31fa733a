/**
 * The documentation topics `cloudg://docs/{topic}` serves. The reference cut its topics out of
 * the Python project's DOCUMENTATION.md; this project's user guide is the repository's docs/
 * pages, so each topic names one of those pages and, where a page covers two subjects, the
 * heading whose section is the topic. `mcp` is the built-in usage guide and needs no file.
 */
export interface DocsTopic {
  /** One line for the topic list. */
  title: string;
  /** The page under the docs directory; absent for the built-in guide. */
  file?: string;
  /** The heading (text after the #s) whose section is the topic; the whole page when absent. */
  heading?: string;
}

export const DOCS_TOPICS: Readonly<Record<string, DocsTopic>> = {
  mcp: { title: 'How to use cloudg through MCP' },
  install: { title: 'Installing cloudg', file: 'install.md' },
  'quick-start': { title: 'Quick start with a desktop client', file: 'quick-start.md' },
  cli: { title: 'The cloudg-mcp command and its options', file: 'cli.md' },
  policies: { title: 'Built-in profiles and your own policy', file: 'policies.md' },
  'serving-a-team': {
    title: 'Serving a team over HTTP: roles, tokens, monitoring',
    file: 'serving-a-team.md',
  },
  'sign-in': { title: 'Sign-in with an OpenID Connect provider', file: 'sign-in.md' },
  'live-collection': { title: 'Live collection: engines, credentials, scanners', file: 'live-collection.md' },
  graph: { title: 'Which graph tool answers which question', file: 'graph-questions.md' },
  findings: {
    title: 'Findings: ingest, triage, suppress',
    file: 'findings-and-compliance.md',
    heading: 'Findings',
  },
  compliance: {
    title: 'Compliance posture, controls and rulesets',
    file: 'findings-and-compliance.md',
    heading: 'Compliance',
  },
  ontology: { title: 'The ontology, SPARQL recipes and RAG chunks', file: 'ontology-and-sparql.md' },
  exports: { title: 'Exports, the interactive report and Terraform', file: 'exports-and-reports.md' },
  'threat-model': { title: 'Threat model and what each profile guarantees', file: 'threat-model.md' },
  troubleshooting: { title: 'Troubleshooting', file: 'troubleshooting.md' },
  embedding: { title: 'Using cloudg inside your own server or agent', file: 'use-inside-your-server.md' },
};

export const DOCS_TOPIC_NAMES: readonly string[] = Object.keys(DOCS_TOPICS);
