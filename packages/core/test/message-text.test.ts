import { describe, expect, it } from 'vitest';
import { Layer, NotFoundError, Registry } from '../src/index.js';
import { messageSafe } from '../src/message-text.js';
import { RecordingPolicy, testLayer } from './helpers.js';

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

describe('close matches in not-found messages', () => {
  it('names visible tools close to the one asked for, in the text and in data', async () => {
    const layer = testLayer();
    const error = (await layer.callTool('find_asset', {}).catch((e: unknown) => e)) as NotFoundError;
    expect(error.message).toBe('Unknown tool: find_asset. Did you mean find_assets?');
    expect(error.data).toEqual({ name: 'find_asset', close_matches: ['find_assets'] });
  });

  it('keeps the reference message when nothing is close', async () => {
    const error = (await testLayer()
      .callTool('nope', {})
      .catch((e: unknown) => e)) as NotFoundError;
    expect(error.message).toBe('Unknown tool: nope');
    expect(error.data).toEqual({ name: 'nope' });
  });

  it('never suggests a tool or prompt the caller cannot see', async () => {
    const layer = testLayer({ policy: new RecordingPolicy({ hidden: ['find_assets', 'investigate'] }) });
    const tool = (await layer.callTool('find_asset', {}).catch((e: unknown) => e)) as NotFoundError;
    expect(tool.message).toBe('Unknown tool: find_asset');
    const prompt = (await layer.getPrompt('investigat', {}).catch((e: unknown) => e)) as NotFoundError;
    expect(prompt.message).toBe('Unknown prompt: investigat');
  });

  it('suggests prompts by name too', async () => {
    const error = (await testLayer()
      .getPrompt('investigat', {})
      .catch((e: unknown) => e)) as NotFoundError;
    expect(error.message).toBe('Unknown prompt: investigat. Did you mean investigate?');
  });
});
