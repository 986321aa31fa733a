import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveAllOnExit, TokenVault, VaultAuthenticationError, VaultIoError } from './index.js';

const KEY = 'docs-example-key';
const ARN = 'arn:aws:ec2:us-east-1:111111111111:instance/i-0bast';

let dir: string;
let path: string;
const opened: TokenVault[] = [];

/** A vault on the test's file; it saves when the test says so (no exit hook by default). */
function vault(options: ConstructorParameters<typeof TokenVault>[0] = {}): TokenVault {
  const v = new TokenVault({ key: KEY, path, ...options });
  opened.push(v);
  return v;
}

function readJson(): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

function rewrite(change: (file: Record<string, unknown>) => void): void {
  const file = readJson();
  change(file);
  writeFileSync(path, JSON.stringify(file));
}

function flipBase64Byte(text: string, at = 0): string {
  const bytes = Buffer.from(text, 'base64');
  bytes[at] = bytes[at]! ^ 0x01;
  return bytes.toString('base64');
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudg-vault-'));
  path = join(dir, 'vault.json');
});
afterEach(() => {
  for (const v of opened.splice(0)) v.close();
});

describe('encrypted vault file', () => {
  it('writes an AES-256-GCM file with mode 0600 that reveals no real value', () => {
    const v = vault();
    const p = v.pseudonymize(ARN, 'aws_arn');
    expect(v.save()).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const file = readJson();
    expect(file).toMatchObject({
      format: 'cloudg-vault/1',
      encrypted: true,
      key_id: v.keyId,
      alg: 'aes-256-gcm',
    });
    expect(Buffer.from(file.nonce as string, 'base64')).toHaveLength(12);
    expect(Buffer.from(file.tag as string, 'base64')).toHaveLength(16);
    const text = readFileSync(path, 'utf8');
    for (const secret of ['111111111111', 'i-0bast', p]) expect(text).not.toContain(secret);
  });

  it('round-trips through a second vault with the same key and path', () => {
    const first = vault();
    const p = first.pseudonymize(ARN, 'aws_arn');
    first.save();
    const second = vault();
    expect(second.stats().entries).toBe(first.stats().entries);
    expect(second.detokenize(p)).toBe(ARN);
    expect(second.detokenizeText(`cloudg://assets/${p}`)).toBe(`cloudg://assets/${ARN}`);
    expect(second.dirty).toBe(false);
    expect(second.stats().counters.loads).toBe(1);
  });

  it('writes atomically: no temporary file is left and an existing file is replaced whole', () => {
    const v = vault();
    v.pseudonymize('a', 'person');
    v.save();
    const inode = statSync(path).ino;
    v.pseudonymize('b', 'person');
    v.save();
    expect(readdirSync(dir)).toEqual(['vault.json']);
    expect(statSync(path).ino).not.toBe(inode);
    expect(vault().stats().entries).toBe(2);
  });

  it('reports a failed write as VaultIoError and leaves no temporary file', () => {
    const v = vault();
    v.pseudonymize('a', 'person');
    writeFileSync(join(dir, 'not-a-dir'), 'x');
    expect(() => v.save(join(dir, 'not-a-dir', 'vault.json'))).toThrow(VaultIoError);
    expect(readdirSync(dir)).toEqual(['not-a-dir']);
  });

  it('saves a copy elsewhere without clearing dirty, and returns null without any path', () => {
    const v = vault();
    v.pseudonymize('a', 'person');
    const copy = join(dir, 'copy.json');
    expect(v.save(copy)).toBe(copy);
    expect(v.dirty).toBe(true);
    expect(new TokenVault({ key: KEY }).save()).toBeNull();
  });

  describe('refuses a wrong key or a modified file, loading nothing', () => {
    const cases: [string, () => void, string?][] = [
      [
        'a flipped byte in data',
        () =>
          rewrite((f) => {
            f.data = flipBase64Byte(f.data as string, 3);
          }),
      ],
      [
        'a changed tag',
        () =>
          rewrite((f) => {
            f.tag = flipBase64Byte(f.tag as string);
          }),
      ],
      [
        'a changed nonce',
        () =>
          rewrite((f) => {
            f.nonce = flipBase64Byte(f.nonce as string);
          }),
      ],
      [
        'a relabelled key id',
        () =>
          rewrite((f) => {
            f.key_id = '000000000000';
          }),
      ],
      [
        'a plaintext file swapped in',
        () => rewrite((f) => Object.assign(f, { encrypted: false, entries: [] })),
      ],
      ['a wrong key', () => {}, 'another-key'],
    ];
    it.each(cases)('%s', (_name, tamper, key) => {
      const first = vault();
      first.pseudonymize(ARN, 'aws_arn');
      first.save();
      tamper();
      // On creation: the constructor throws.
      expect(() => vault({ key: key ?? KEY })).toThrow(VaultAuthenticationError);
      // On an explicit load: the error is clear and the vault stays as it was.
      const other = vault({ key: key ?? KEY, path: null });
      const p = other.pseudonymize('kept', 'person');
      const before = other.export();
      let error: unknown;
      try {
        other.load(path);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(VaultAuthenticationError);
      expect((error as VaultAuthenticationError).message).toBe(
        'Vault file authentication failed (wrong key or tampered file)',
      );
      expect((error as VaultAuthenticationError).code).toBe('vault_authentication');
      expect(other.export()).toEqual(before);
      expect(other.detokenize(p)).toBe('kept');
    });
  });
});

describe('plaintext vault file', () => {
  it('writes the export document readable with encrypt: false, and loads it back', () => {
    const v = vault({ encrypt: false });
    const p = v.pseudonymize('web-1', 'resource_name');
    v.save();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readJson()).toEqual(v.export());
    expect(vault({ encrypt: false }).detokenize(p)).toBe('web-1');
  });
});

describe('saving when it matters', () => {
  it('clears dirty and issuedSinceSave on save', () => {
    const v = vault();
    v.pseudonymize('a', 'person');
    expect(v.issuedSinceSave).toBe(1);
    v.save();
    expect(v.dirty).toBe(false);
    expect(v.issuedSinceSave).toBe(0);
  });

  it('autosaves only when enabled, configured with a path and changed', () => {
    const off = vault();
    off.pseudonymize('a', 'person');
    expect(off.autosaveIfNeeded()).toBe(false);
    const on = vault({ autosave: true });
    expect(on.autosaveIfNeeded()).toBe(false); // nothing changed yet
    on.pseudonymize('a', 'person');
    expect(on.autosaveIfNeeded()).toBe(true);
    expect(on.autosaveIfNeeded()).toBe(false);
    expect(vault().stats().entries).toBe(1);
  });

  it('saves every changed vault that asked for it from the exit hook', () => {
    const a = new TokenVault({ key: KEY, path, saveOnExit: true });
    const bPath = join(dir, 'b.json');
    const b = new TokenVault({ key: KEY, path: bPath, saveOnExit: true });
    opened.push(a, b);
    a.pseudonymize('a', 'person');
    expect(saveAllOnExit()).toBeGreaterThanOrEqual(1);
    expect(readdirSync(dir).sort()).toEqual(['vault.json']); // b did not change
    expect(a.dirty).toBe(false);
  });

  /** Run a script in a child process that imports the vault module; returns its stdout. */
  function runScript(body: string): string {
    const entry = join(dirname(fileURLToPath(import.meta.url)), 'index.ts');
    const script = `import { TokenVault } from ${JSON.stringify(entry)};\n${body}`;
    const root = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
    return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
  }

  it('leaves the file behind when a process that opted in simply exits', () => {
    runScript(`
      const v = new TokenVault({ key: ${JSON.stringify(KEY)}, path: ${JSON.stringify(path)}, saveOnExit: true });
      v.pseudonymize(${JSON.stringify(ARN)}, 'aws_arn');
    `);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const loaded = vault();
    expect(loaded.detokenize(loaded.lookup(ARN, 'aws_arn')!)).toBe(ARN);
  });

  it('registers no process handler by default: the application saves the vault, not an exit hook', () => {
    const out = runScript(`
      const before = process.listenerCount('exit');
      const v = new TokenVault({ key: ${JSON.stringify(KEY)}, path: ${JSON.stringify(path)} });
      v.pseudonymize(${JSON.stringify(ARN)}, 'aws_arn');
      process.stdout.write(JSON.stringify({ added: process.listenerCount('exit') - before, dirty: v.dirty }));
    `);
    expect(JSON.parse(out)).toEqual({ added: 0, dirty: true });
    expect(readdirSync(dir)).toEqual([]);
  });
});
