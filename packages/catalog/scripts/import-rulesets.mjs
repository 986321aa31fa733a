#!/usr/bin/env node
// Rebuild packages/catalog/rulesets/ from a directory of rules in the original cloudg layout
// (hand-written pattern rulesets at the top, Prowler-derived check rulesets under frameworks/,
// check_equivalence.yaml beside them). Usage:
//   node scripts/import-rulesets.mjs <source-rules-dir> [<out-dir>]
// Each file is parsed, checked for the keys cloudg understands, and written again in the
// catalog's own layout with a header naming where its facts came from. Run it when the
// upstream mappings change; the loader (src/compliance/ruleset-loader.ts) validates the result.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';

const [source, outArg] = process.argv.slice(2);
if (!source) {
  console.error('usage: import-rulesets.mjs <source-rules-dir> [<out-dir>]');
  process.exit(2);
}
const out = outArg ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'rulesets');

// The hand-written CIS rulesets carry no provider upstream; their benchmarks are per cloud, so
// the provider is added here. The pattern tier uses it to keep an AWS finding out of CIS-AZURE.
const PROVIDER_BY_FILE = { 'cis_aws_v3.yaml': 'aws', 'cis_azure_v2.yaml': 'azure', 'cis_gcp_v3.yaml': 'gcp' };

function yamlFiles(dir) {
  const entries = readdirSync(dir).sort();
  const files = entries.filter((e) => e.endsWith('.yaml') && statSync(join(dir, e)).isFile());
  const dirs = entries.filter((e) => statSync(join(dir, e)).isDirectory());
  return [...files.map((f) => join(dir, f)), ...dirs.flatMap((d) => yamlFiles(join(dir, d)))];
}

function ruleset(doc, file) {
  const provider = doc.provider ?? PROVIDER_BY_FILE[basename(file)] ?? null;
  const out = { framework: doc.framework, version: doc.version == null ? null : String(doc.version) };
  if (provider) out.provider = provider;
  if (doc.source) out.source = doc.source;
  out.controls = (doc.controls ?? []).map((c) => {
    const control = { id: String(c.id), title: c.title ?? null };
    if (c.severity) control.severity = String(c.severity).toUpperCase();
    if (c.checks?.length) control.checks = c.checks.map(String);
    if (c.patterns?.length) control.patterns = c.patterns.map(String);
    return control;
  });
  return out;
}

let written = 0;
for (const file of yamlFiles(source)) {
  const rel = relative(source, file);
  const doc = parse(readFileSync(file, 'utf8'));
  const isEquivalence = basename(file) === 'check_equivalence.yaml';
  const body = isEquivalence ? { equivalences: doc.equivalences ?? [] } : ruleset(doc, file);
  const header = isEquivalence
    ? '# cloudg check equivalences: scanner checks that test the same thing, so findings from\n' +
      '# different scanners about one resource may be merged. Imported by scripts/import-rulesets.mjs.\n'
    : `# cloudg compliance ruleset: ${body.framework}${body.version ? ` ${body.version}` : ''}` +
      `${body.provider ? ` (${body.provider})` : ''}.\n` +
      '# Imported by scripts/import-rulesets.mjs; the facts come from the source named below.\n';
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  writeFileSync(join(out, rel), `${header}${stringify(body, { lineWidth: 0 })}`);
  written += 1;
}
console.log(`wrote ${written} files to ${out}`);
