/**
 * What a vault file costs a replica at start with --redis-url: a single node's file of N
 * mappings (ARNs, cloud hostnames, addresses: most of them built on parts) claimed in a local
 * redis-server (TokenVault.shareHeld), into an empty Redis (the first replica) and into one that
 * already holds them (every later replica). Prints the median and spread over the runs.
 *
 *   pnpm --filter @cloudg/redis bench:vault-file [-- --values 20000 --runs 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TokenVault } from '@cloudg/privacy';
import { createRedisSharedState } from '../src/index.js';
import { TestRedis } from '../test/support/redis-server.js';

const { values: flags } = parseArgs({
  options: { values: { type: 'string', default: '20000' }, runs: { type: 'string', default: '5' } },
});
const count = Number(flags.values);
const runs = Number(flags.runs);
const key = 'bench-vault-file-key';

function estate(n: number): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; out.length < n; i++) {
    const account = `1234567890${String(i % 50).padStart(2, '0')}`;
    out.push([`arn:aws:ec2:us-east-1:${account}:instance/i-${i.toString(16).padStart(8, '0')}`, 'aws_arn']);
    out.push([`web-${i}.svc-${i % 97}.us-east-1.elb.amazonaws.com`, 'hostname']);
    out.push([`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'ip_address']);
  }
  return out.slice(0, n);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const dir = mkdtempSync(join(tmpdir(), 'cloudg-bench-vault-file-'));
const path = join(dir, 'vault.json');
const single = new TokenVault({ key, path });
for (const [value, entity] of estate(count)) single.pseudonymize(value, entity);
single.save();
const mappings = single.stats().entries;

const redis = await TestRedis.start();
const first: number[] = [];
const later: number[] = [];
try {
  for (let run = 0; run < runs; run++) {
    const state = await createRedisSharedState(redis.url, { keyPrefix: `bench-${run}:` });
    for (const into of [first, later]) {
      const vault = new TokenVault({ key, path });
      vault.shareWith(state.vaultStore);
      const started = performance.now();
      const held = await vault.shareHeld(state.vaultStore);
      into.push(performance.now() - started);
      if (held.kept !== mappings) throw new Error(`kept ${held.kept} of ${mappings}`);
    }
    await state.close();
  }
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
const line = (label: string, xs: number[]) =>
  `${label}: median ${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)} to ${Math.max(...xs).toFixed(0)} ms over ${xs.length} runs)`;
console.log(`vault file of ${mappings} mappings (${count} values and their parts)`);
console.log(line('first replica (empty Redis)', first));
console.log(line('later replica (Redis holds them)', later));
