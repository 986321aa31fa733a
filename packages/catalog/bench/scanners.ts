/**
 * Scanner-report benchmark: large Prowler (ASFF and OCSF), Trivy and ScoutSuite reports built by
 * repeating records of the real corpus (test/fixtures/scanners) over many accounts, regions and
 * resources, each read with `loadPath` (parse, detection, deduplication, compliance results).
 * Prints the median and spread of each, and findings per second; asserts nothing.
 *
 *   cd packages/catalog && npx tsx --conditions=@cloudg/source bench/scanners.ts [-- --records 100000 --runs 5]
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { loadPath } from '../src/loaders/load.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    records: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
  },
});
const RECORDS = Number(values.records);
const RUNS = Number(values.runs);
const corpus = join(import.meta.dirname, '../test/fixtures/scanners');

type Rec = Record<string, unknown>;

const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1', 'sa-east-1'];

/** Record i of n copies: its own account, region and resource, so nothing is a duplicate. */
function vary(i: number): { account: string; region: string; suffix: string } {
  return {
    account: String(100000000000 + (i % 50)),
    region: REGIONS[i % REGIONS.length] ?? 'us-east-1',
    suffix: `r${i}`,
  };
}

async function asff(): Promise<Rec[]> {
  const all = JSON.parse(
    gunzipSync(await readFile(join(corpus, 'prowler/v3-asff-286-failed.asff.json.gz'))).toString('utf8'),
  ) as Rec[];
  const failed = all.filter((r) => (r.Compliance as Rec).Status === 'FAILED');
  return Array.from({ length: RECORDS }, (_, i) => {
    const base = failed[i % failed.length] as Rec;
    const { account, region, suffix } = vary(i);
    const resource = { ...((base.Resources as Rec[])[0] as Rec) };
    resource.Id = `arn:aws:ec2:${region}:${account}:instance/i-${suffix}`;
    resource.Region = region;
    return { ...base, Id: `${String(base.Id)}-${suffix}`, AwsAccountId: account, Resources: [resource] };
  });
}

async function ocsf(): Promise<Rec[]> {
  const records = JSON.parse(
    await readFile(join(corpus, 'prowler/v4.5-ocsf-many.ocsf.json'), 'utf8'),
  ) as Rec[];
  return Array.from({ length: RECORDS }, (_, i) => {
    const base = records[i % records.length] as Rec;
    const { account, region, suffix } = vary(i);
    const resource = {
      ...((base.resources as Rec[])[0] as Rec),
      uid: `arn:aws:iam::${account}:role/${suffix}`,
      region,
    };
    const cloud = { ...(base.cloud as Rec), account: { uid: account }, region };
    return { ...base, resources: [resource], cloud };
  });
}

async function trivy(): Promise<Rec> {
  const report = JSON.parse(await readFile(join(corpus, 'trivy/schema2-image.json'), 'utf8')) as Rec;
  const result = (report.Results as Rec[])[0] as Rec;
  const vulns = result.Vulnerabilities as Rec[];
  const many = Array.from({ length: RECORDS }, (_, i) => ({
    ...(vulns[i % vulns.length] as Rec),
    PkgName: `pkg-${i}`,
  }));
  return { ...report, Results: [{ ...result, Vulnerabilities: many }] };
}

async function scoutsuite(): Promise<string> {
  const text = await readFile(join(corpus, 'scoutsuite/scoutsuite_results_aws-trimmed.js'), 'utf8');
  const results = JSON.parse(text.slice(text.indexOf('{'))) as Rec;
  const services = results.services as Record<string, Rec>;
  const findings = (services.ec2 as Rec).findings as Record<string, Rec>;
  const rule = findings['ec2-security-group-opens-all-ports'] as Rec;
  rule.items = Array.from(
    { length: RECORDS },
    (_, i) => `ec2.regions.${vary(i).region}.vpcs.vpc-1.security_groups.sg-${i}.rules.ingress.protocols.ALL`,
  );
  rule.flagged_items = RECORDS;
  return `scoutsuite_results =\n${JSON.stringify(results)}\n`;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'cloudg-bench-scanners-'));
  try {
    const files: [string, string][] = [
      ['Prowler 3 ASFF', join(dir, 'prowler.asff.json')],
      ['Prowler 4.5 OCSF', join(dir, 'prowler.ocsf.json')],
      ['Trivy image', join(dir, 'trivy-image.json')],
      ['ScoutSuite', join(dir, 'scoutsuite_results_aws.js')],
    ];
    await writeFile(files[0]![1], JSON.stringify(await asff()));
    await writeFile(files[1]![1], JSON.stringify(await ocsf()));
    await writeFile(files[2]![1], JSON.stringify(await trivy()));
    await writeFile(files[3]![1], await scoutsuite());
    console.log(
      `${RECORDS} failing records per report, ${RUNS} runs each; load average ${loadavg()[0]?.toFixed(2)}`,
    );
    for (const [label, path] of files) {
      const times: number[] = [];
      const cpu: number[] = [];
      let findings = 0;
      for (let i = 0; i < RUNS; i += 1) {
        const start = performance.now();
        const used = process.cpuUsage();
        const outcome = await loadPath(path);
        times.push(performance.now() - start);
        const spent = process.cpuUsage(used);
        cpu.push((spent.user + spent.system) / 1000);
        findings = outcome.data.findings?.length ?? 0;
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? 0;
      // On a shared machine the wall time includes waiting for a core; the CPU time does not.
      const cpuMedian = cpu[Math.floor(cpu.length / 2)] ?? 0;
      console.log(
        `${label.padEnd(18)} ${String(findings).padStart(7)} findings  median ${median.toFixed(0)} ms  (min ${times[0]?.toFixed(0)}, max ${times.at(-1)?.toFixed(0)}), CPU ${cpuMedian.toFixed(0)} ms  ${Math.round(findings / (median / 1000))} findings/s`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
