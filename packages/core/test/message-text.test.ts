import { describe, expect, it } from 'vitest';
import { Layer, NotFoundError, Registry } from '../src/index.js';
import { messageSafe } from '../src/message-text.js';

describe('messageSafe', () => {
  it('leaves ordinary names alone', () => {
    expect(messageSafe('find_assets')).toBe('find_assets');
    expect(messageSafe('cloudg://assets/arn:aws:ec2:us-east-1:1:instance/i-0 ü')).toBe(
      'cloudg://assets/arn:aws:ec2:us-east-1:1:instance/i-0 ü',
    );
  });

  it('escapes terminal controls, bidi overrides, zero-width and tag characters', () => {
    expect(messageSafe('a\u001b[2Jb\r\nc')).toBe('a\\u001b[2Jb\\u000d\\u000ac');
    expect(messageSafe('x\u202ey\u200bz')).toBe('x\\u202ey\\u200bz');
    expect(messageSafe('t\u{E0041}')).toBe('t\\ue0041');
  });

  it('cuts long values and says how much was left out', () => {
    expect(messageSafe('x'.repeat(250))).toBe(`${'x'.repeat(200)}… (50 more characters)`);
  });
});

describe('not-found messages', () => {
  it('show a hostile tool name safely, with the whole name in data', async () => {
    const layer = new Layer({ registry: new Registry() });
    const name = `evil\u001b]0;pwned\u0007${'y'.repeat(300)}`;
    const error = (await layer.callTool(name, {}).catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message.startsWith('Unknown tool: evil\\u001b]0;pwned\\u0007yyy')).toBe(true);
    expect(error.message).toContain('… (');
    expect([...error.message].some((c) => (c.codePointAt(0) ?? 0) < 0x20)).toBe(false);
    expect((error.data as { name: string }).name).toBe(name);
  });
});
