// A layer with one tool, one resource and one prompt, called in-process.
// Run: pnpm --filter @cloudg/core exec tsx --conditions=@cloudg/source examples/quickstart.examples.ts

import { Layer, Principal, Registry } from '@cloudg/core';
import * as z from 'zod';

const registry = new Registry();

registry.tool({
  name: 'count_words',
  title: 'Count words',
  description: 'Count the words in a text.',
  category: 'demo',
  input: { text: z.string().describe('The text'), min_length: z.number().int().min(1).default(1) },
  handler: (_ctx, args) => ({
    words: args.text.split(/\s+/).filter((w) => w.length >= args.min_length).length,
  }),
});

registry.resource({
  uri: 'demo://about',
  name: 'about',
  category: 'demo',
  handler: () => ({ service: 'demo', version: 1 }),
});

registry.prompt({
  name: 'summarise',
  category: 'demo',
  arguments: [{ name: 'topic', required: true }],
  handler: (_ctx, args) => `Summarise what you know about ${args.topic}.`,
});

export async function quickstart(): Promise<string[]> {
  const layer = new Layer({ registry });
  const lines: string[] = [];

  const ok = await layer.callTool('count_words', { text: 'a big cloud', min_length: '2' });
  lines.push(`count_words -> ${JSON.stringify(ok.structured)}`);

  const bad = await layer.callTool('count_words', { text: 'x', colour: 'red' });
  lines.push(`invalid -> ${bad.meta['cloudg/error_code']} ${(bad.content[0] as { text: string }).text}`);

  const [about] = await layer.readResource('demo://about');
  lines.push(`about -> ${about?.mimeType}`);

  const prompt = await layer.getPrompt('summarise', { topic: 'IAM' }, { principal: Principal.anonymous() });
  lines.push(`prompt -> ${prompt.messages.length} message(s)`);

  lines.push(
    `tools -> ${layer
      .toolsWire()
      .map((t) => t.name)
      .join(', ')}`,
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await quickstart()) console.log(line);
}
