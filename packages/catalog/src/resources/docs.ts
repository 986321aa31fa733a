import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Registry } from '@cloudg/core';
import { completeDocsTopic } from '../completions/docs-topics.js';
import { MCP_GUIDE } from '../docs/guide.js';
import { DOCS_DIR_ENV, locateDocsDir } from '../docs/locate.js';
import { capSection, sectionOf } from '../docs/sections.js';
import { DOCS_TOPIC_NAMES, DOCS_TOPICS } from '../docs/topics.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';
import type { Workspace } from '../workspace/workspace.js';

export const DOCS_URI = 'cloudg://docs';

/** What every file topic says when the docs directory cannot be found. */
function missingDocsNote(topic: string): string {
  return [
    `# ${topic}`,
    '',
    `The cloudg documentation directory was not found on this server, so this topic cannot be shown.`,
    `Set ${DOCS_DIR_ENV} to the docs/ directory of a cloudg checkout, or read the user guide in the`,
    'repository (docs/README.md). The `mcp` topic is built in and always available.',
  ].join('\n');
}

async function topicText(topic: string): Promise<string> {
  const entry = DOCS_TOPICS[topic];
  if (!entry) {
    // The message lists the topics; the data carries them too, as the other unknown-value errors do.
    throw new ReferenceNotFoundError(`Unknown docs topic. Topics: ${DOCS_TOPIC_NAMES.join(', ')}`, {
      data: { value: topic, valid: [...DOCS_TOPIC_NAMES] },
    });
  }
  if (!entry.file) return MCP_GUIDE;
  const dir = locateDocsDir();
  if (dir === null) return missingDocsNote(topic);
  let page: string;
  try {
    page = await readFile(join(dir, entry.file), 'utf8');
  } catch {
    // A docs directory without this page (an older copy) is the same situation as no directory.
    return missingDocsNote(topic);
  }
  const text = entry.heading ? sectionOf(page, entry.heading) : page.trimEnd();
  return capSection(text ?? missingDocsNote(topic));
}

/** `cloudg://docs` (the topic list) and `cloudg://docs/{topic}` (one section as Markdown). */
export function registerDocsResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: DOCS_URI,
    name: 'docs',
    title: 'Documentation topics',
    description:
      'Whether the documentation directory was found (available) and the topics cloudg://docs/{topic} serves, each with a one-line title.',
    category: 'meta',
    sensitivity: 'public',
    mimeType: 'application/json',
    handler: () => {
      const topics: Record<string, string> = {};
      for (const name of DOCS_TOPIC_NAMES) topics[name] = DOCS_TOPICS[name]?.title ?? '';
      return { available: locateDocsDir() !== null, topics };
    },
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://docs/{topic}',
    name: 'docs-topic',
    title: 'Documentation topic',
    description:
      'One section of the user guide as Markdown (up to 40,000 characters); mcp is a built-in usage guide. Read cloudg://docs for the topics.',
    category: 'meta',
    sensitivity: 'public',
    mimeType: 'text/markdown',
    completions: { topic: completeDocsTopic },
    handler: async (_ctx, vars) => {
      const topic = (vars.topic ?? '').trim().toLowerCase();
      const text = await topicText(topic);
      return [{ uri: `${DOCS_URI}/${topic}`, mimeType: 'text/markdown', text }];
    },
  });
}
