// A layer with one tool, one resource and one prompt, called in-process. The README's quick start
// is the region `quickstart` (`pnpm readme-examples --update` copies it); test/examples.test.ts
// runs this file and checks what the comments say.
// Run: pnpm --filter @cloudg/core exec tsx --conditions=@cloudg/source examples/quickstart.examples.ts

// #region quickstart
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
// #endregion quickstart

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
  // #region quickstart
  const layer = new Layer({ registry });
  const ok = await layer.callTool('count_words', { text: 'a big cloud', min_length: '2' });
  // ok.structured -> {"words":2}   ("2" was coerced to 2; the default filled in otherwise)
  const bad = await layer.callTool('count_words', { text: 'x', colour: 'red' });
  // bad.isError -> true, bad.meta['cloudg/error_code'] -> -32602
  // text: "Invalid arguments: colour: Extra inputs are not permitted. Valid arguments: text, min_length"
  // #endregion quickstart

  const lines: string[] = [];
  lines.push(`count_words -> ${JSON.stringify(ok.structured)}`);
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
