import { describe, expect, it } from 'vitest';
import { TokenVault } from './index.js';
import { classifyIp, formatIp, maskTo, parseIp } from './ip/address.js';

const KEY = 'docs-example-key';

/** True when `addr` lies inside `cidr` (both as text). */
function contains(cidr: string, addr: string): boolean {
  const net = parseIp(cidr)!;
  const ip = parseIp(addr)!;
  return formatIp(maskTo(ip.bytes, net.prefix!)) === formatIp(maskTo(net.bytes, net.prefix!));
}

describe('IP addresses and prefixes', () => {
  it('parses and prints IPv4, IPv6 (RFC 5952) and CIDRs', () => {
    expect(formatIp(parseIp('10.0.1.5')!.bytes)).toBe('10.0.1.5');
    expect(parseIp('10.0.1.0/24')!.prefix).toBe(24);
    expect(formatIp(parseIp('2001:0DB8:0:0:1:0:0:1')!.bytes)).toBe('2001:db8::1:0:0:1');
    expect(formatIp(parseIp('::ffff:10.0.0.1')!.bytes)).toBe('::ffff:a00:1');
    expect(formatIp(parseIp('fe80::')!.bytes)).toBe('fe80::');
    for (const bad of ['10.0.1', '256.1.1.1', '10.0.1.5/33', '1::2::3', 'abc', '12:30:00', '10.0.1.5/']) {
      expect(parseIp(bad)).toBeNull();
    }
  });

  it('classifies special, private and public addresses (12.2)', () => {
    const cls = (t: string) => classifyIp(parseIp(t)!.bytes, parseIp(t)!.prefix);
    for (const t of [
      '0.0.0.0',
      '127.0.0.1',
      '169.254.169.254',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      'fe80::1',
      '10.0.0.0/0',
    ])
      expect(cls(t), t).toBe('special');
    for (const t of ['10.1.2.3', '172.31.0.1', '192.168.0.1', '100.64.0.1', 'fd00::1'])
      expect(cls(t), t).toBe('private');
    for (const t of ['54.12.33.4', '172.32.0.1', '198.18.0.1', '2001:db8::1'])
      expect(cls(t), t).toBe('public');
  });
});

describe('private IP pseudonyms keep subnets', () => {
  it('puts the hosts of a /24 inside the pseudonym of the /24, and other hosts outside', () => {
    const vault = new TokenVault({ key: KEY });
    const net = vault.pseudonymize('10.0.1.0/24', 'private_cidr');
    expect(net).toMatch(/^10\.\d+\.\d+\.0\/24$/);
    expect(contains(net, vault.pseudonymize('10.0.1.5', 'private_ip'))).toBe(true);
    expect(contains(net, vault.pseudonymize('10.0.1.77', 'private_ip'))).toBe(true);
    expect(contains(net, vault.pseudonymize('10.0.2.5', 'private_ip'))).toBe(false);
  });

  it('is a bijection inside each block', () => {
    const vault = new TokenVault({ key: KEY });
    const net = vault.pseudonymize('192.168.7.0/24', 'private_cidr');
    const seen = new Set<string>();
    for (let h = 0; h < 256; h++) {
      const p = vault.pseudonymize(`192.168.7.${h}`, 'private_ip');
      expect(contains(net, p)).toBe(true);
      seen.add(p);
    }
    expect(seen.size).toBe(256);
    expect(vault.stats().counters.collisions).toBe(0);
  });

  it('keeps nested prefixes nested at every length', () => {
    const vault = new TokenVault({ key: KEY });
    const host = vault.pseudonymize('172.20.3.4', 'private_ip');
    for (let len = 13; len <= 32; len++) {
      const cidr = `${formatIp(maskTo(parseIp('172.20.3.4')!.bytes, len))}/${len}`;
      expect(contains(vault.pseudonymize(cidr, 'private_cidr'), host), cidr).toBe(true);
    }
  });

  it('keeps IPv6 ULA subnets inside fc00::/7', () => {
    const vault = new TokenVault({ key: KEY });
    const net = vault.pseudonymize('fd12:3456:789a:1::/64', 'private_cidr');
    expect(net).toMatch(/^f[cd][0-9a-f]{2}:[0-9a-f:]+\/64$/);
    expect(contains(net, vault.pseudonymize('fd12:3456:789a:1::1', 'private_ip'))).toBe(true);
    expect(contains(net, vault.pseudonymize('fd12:3456:789a:2::1', 'private_ip'))).toBe(false);
  });

  it('keeps host bits of an interface address', () => {
    const vault = new TokenVault({ key: KEY });
    expect(vault.pseudonymize('10.0.1.5/24', 'private_cidr')).toBe(
      `${vault.pseudonymize('10.0.1.5', 'private_ip')}/24`,
    );
  });
});

describe('public IP pseudonyms are consistent with their CIDRs (fix of 13.7)', () => {
  it('puts 54.12.33.4 inside the pseudonym of 54.12.33.0/24', () => {
    const vault = new TokenVault({ key: KEY });
    const net = vault.pseudonymize('54.12.33.0/24', 'public_cidr');
    const host = vault.pseudonymize('54.12.33.4', 'public_ip');
    expect(net).toMatch(/^198\.1[89]\.\d+\.0\/24$/);
    expect(host).toMatch(/^198\.1[89]\.\d+\.\d+$/);
    expect(contains(net, host)).toBe(true);
  });

  it('holds for every prefix from /15 to /32', () => {
    for (const a of ['54.12.33.4', '3.5.140.2', '13.107.42.14', '203.0.113.9', '8.8.8.8', '52.94.76.1']) {
      // One vault per address: two different /15s cannot both be the whole 198.18.0.0/15 pool.
      const vault = new TokenVault({ key: KEY });
      const host = vault.pseudonymize(a, 'public_ip');
      for (let len = 15; len <= 32; len++) {
        const cidr = `${formatIp(maskTo(parseIp(a)!.bytes, len))}/${len}`;
        const p = vault.pseudonymize(cidr, 'public_cidr');
        expect(contains('198.18.0.0/15', p.split('/')[0]!), cidr).toBe(true);
        expect(contains(p, host), `${a} in ${cidr}`).toBe(true);
      }
    }
  });

  it('resolves pool collisions with distinct, reversible pseudonyms that mostly stay in their /24', () => {
    const vault = new TokenVault({ key: KEY });
    const single = new TokenVault({ key: KEY });
    const seen = new Map<string, string>();
    let inside = 0;
    const n = 3000;
    for (let i = 0; i < n; i++) {
      const a = `${11 + (i % 80)}.${Math.floor(i / 80)}.${(i * 13) % 256}.${(i * 29) % 256}`;
      const p = vault.pseudonymize(a, 'public_ip');
      expect(contains('198.18.0.0/15', p)).toBe(true);
      expect(seen.has(p)).toBe(false);
      seen.set(p, a);
      if (contains(single.pseudonymize(`${a.split('.').slice(0, 3).join('.')}.0/24`, 'public_cidr'), p))
        inside++;
      single.clear();
    }
    for (const [p, a] of seen) expect(vault.detokenize(p)).toBe(a);
    const { collisions } = vault.stats().counters;
    expect(collisions).toBeGreaterThan(0);
    expect(inside).toBeGreaterThan(n - collisions);
    expect(inside).toBeGreaterThanOrEqual(n * 0.99);
  });

  it('never makes addresses of one real /15 clash', () => {
    const vault = new TokenVault({ key: KEY });
    for (let i = 0; i < 4096; i++) vault.pseudonymize(`54.12.${i >> 8}.${i & 255}`, 'public_ip');
    expect(vault.stats().counters.collisions).toBe(0);
    expect(vault.stats().entries).toBe(4096);
  });

  it('moves a public CIDR that finds no room in the pool to 240.0.0.0/4', () => {
    const vault = new TokenVault({ key: KEY });
    const a = vault.pseudonymize('54.12.0.0/15', 'public_cidr');
    const b = vault.pseudonymize('3.4.0.0/15', 'public_cidr');
    expect(a).toBe('198.18.0.0/15');
    expect(contains('240.0.0.0/4', b.split('/')[0]!)).toBe(true);
    expect(b.endsWith('/15')).toBe(true);
    expect(vault.detokenize(b)).toBe('3.4.0.0/15');
  });

  it('keeps wide public CIDRs nested inside 240.0.0.0/4 and leaves /0-/3 alone', () => {
    const vault = new TokenVault({ key: KEY });
    const wide = vault.pseudonymize('52.0.0.0/8', 'public_cidr');
    expect(contains('240.0.0.0/4', wide.split('/')[0]!)).toBe(true);
    expect(contains(wide, vault.pseudonymize('52.16.0.0/12', 'public_cidr').split('/')[0]!)).toBe(true);
    expect(vault.pseudonymize('32.0.0.0/3', 'public_cidr')).toBe('32.0.0.0/3');
  });

  it('puts public IPv6 in 2001:db8::/32, consistent with /32 and narrower prefixes', () => {
    const vault = new TokenVault({ key: KEY });
    const host = vault.pseudonymize('2600:1f18:abcd::5', 'public_ip');
    expect(contains('2001:db8::/32', host)).toBe(true);
    for (const len of [32, 48, 56, 64, 127]) {
      const cidr = `${formatIp(maskTo(parseIp('2600:1f18:abcd::5')!.bytes, len))}/${len}`;
      expect(contains(vault.pseudonymize(cidr, 'public_cidr'), host), cidr).toBe(true);
    }
    expect(vault.pseudonymize('2600::/16', 'public_cidr')).toBe('2600::/16');
  });

  it('classifies by value, so a public address under a private entity still goes to the public pool', () => {
    const vault = new TokenVault({ key: KEY });
    expect(vault.pseudonymize('54.12.33.4', 'private_ip')).toMatch(/^198\.1[89]\./);
  });
});
