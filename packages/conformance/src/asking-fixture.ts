/**
 * The fixture tools and prompt that ask the client: server-to-client requests in the handshake
 * era (`test_sampling`, `test_elicitation`, SEP-1034/1330 forms) and multi round-trip requests in
 * 2026-07-28 (`test_input_required_result_*`, `test_missing_capability`,
 * `test_streaming_elicitation`). All go through `ToolContext.ask` like any cloudg tool; the
 * question keys are the ones the suite's scenarios name.
 */
import { type ClientQuestion, type ElicitParams, type Registry, ToolResult, textContent } from '@cloudg/core';
import * as z from 'zod';

const text = (value: string) => new ToolResult({ content: [textContent(value)] });

const elicit = (
  message: string,
  properties: ElicitParams['requestedSchema']['properties'],
  required: string[],
) =>
  ({
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required } },
  }) satisfies ClientQuestion;

const sample = (prompt: string, maxTokens: number) =>
  ({
    method: 'sampling/createMessage',
    params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens },
  }) satisfies ClientQuestion;

const roots = { method: 'roots/list', params: {} } satisfies ClientQuestion;

function sampledText(answer: unknown): string {
  const content = (answer as { content?: { type?: string; text?: string } }).content;
  return content?.type === 'text' ? (content.text ?? '') : JSON.stringify(content);
}

export function registerAskingFixtures(reg: Registry): void {
  const tool = (name: string, description: string, handler: Parameters<Registry['tool']>[0]['handler']) =>
    reg.tool({ name, description, category: 'conformance', handler });

  // ---- handshake era: server-to-client requests ----
  reg.tool({
    name: 'test_sampling',
    description: 'Asks the client model.',
    category: 'conformance',
    input: { prompt: z.string() },
    handler: async (ctx, args) => {
      const answer = await ctx.sample(sample(args.prompt, 100).params);
      return text(`LLM response: ${sampledText(answer)}`);
    },
  });
  reg.tool({
    name: 'test_elicitation',
    description: 'Asks the user for a username and email.',
    category: 'conformance',
    input: { message: z.string() },
    handler: async (ctx, args) => {
      const answer = await ctx.elicit(
        elicit(
          args.message,
          {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          ['username', 'email'],
        ).params,
      );
      return text(`User response: ${JSON.stringify(answer)}`);
    },
  });
  tool('test_elicitation_sep1034_defaults', 'Elicits a form with defaults.', async (ctx) => {
    const answer = await ctx.elicit({
      message: 'Please review and update the form fields with defaults',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'User name', default: 'John Doe' },
          age: { type: 'integer', description: 'User age', default: 30 },
          score: { type: 'number', description: 'User score', default: 95.5 },
          status: {
            type: 'string',
            description: 'User status',
            enum: ['active', 'inactive', 'pending'],
            default: 'active',
          },
          verified: { type: 'boolean', description: 'Verification status', default: true },
        },
      },
    });
    return text(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  });
  tool('test_elicitation_sep1330_enums', 'Elicits every enum form.', async (ctx) => {
    const answer = await ctx.elicit({
      message: 'Please select options from the enum fields',
      requestedSchema: {
        type: 'object',
        properties: {
          untitledSingle: {
            type: 'string',
            description: 'Untitled single-select',
            enum: ['option1', 'option2', 'option3'],
          },
          titledSingle: {
            type: 'string',
            description: 'Titled single-select',
            oneOf: [
              { const: 'value1', title: 'First Option' },
              { const: 'value2', title: 'Second Option' },
              { const: 'value3', title: 'Third Option' },
            ],
          },
          legacyEnum: {
            type: 'string',
            description: 'Legacy titled enum',
            enum: ['opt1', 'opt2', 'opt3'],
            enumNames: ['Option One', 'Option Two', 'Option Three'],
          },
          untitledMulti: {
            type: 'array',
            description: 'Untitled multi-select',
            items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
          },
          titledMulti: {
            type: 'array',
            description: 'Titled multi-select',
            items: {
              anyOf: [
                { const: 'value1', title: 'First Choice' },
                { const: 'value2', title: 'Second Choice' },
                { const: 'value3', title: 'Third Choice' },
              ],
            },
          },
        },
      },
    });
    return text(
      `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  });

  // ---- 2026-07-28: multi round-trip requests ----
  const nameForm = (message: string) => elicit(message, { name: { type: 'string' } }, ['name']);
  tool('test_input_required_result_elicitation', 'Asks for a name.', async (ctx) => {
    const { user_name } = await ctx.ask({ user_name: nameForm('What is your name?') });
    const content = (user_name as { content?: { name?: string } }).content;
    return text(`Hello, ${content?.name ?? 'stranger'}!`);
  });
  tool('test_input_required_result_sampling', 'Asks the client model.', async (ctx) => {
    const { capital_question } = await ctx.ask({
      capital_question: sample('What is the capital of France?', 100),
    });
    return text(`Sampling said: ${sampledText(capital_question)}`);
  });
  tool('test_input_required_result_list_roots', 'Asks for the roots.', async (ctx) => {
    const { client_roots } = await ctx.ask({ client_roots: roots });
    const list = (client_roots as { roots?: { uri: string }[] }).roots ?? [];
    return text(`Roots: ${list.map((r) => r.uri).join(', ')}`);
  });
  tool('test_input_required_result_request_state', 'Asks for a confirmation, with state.', async (ctx) => {
    await ctx.ask({ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) });
    // Reaching here on a retry means the state passed its integrity check.
    return text('state-ok: confirmed');
  });
  tool('test_input_required_result_tampered_state', 'Asks once; its state is signed.', async (ctx) => {
    await ctx.ask({ confirm: elicit('Please confirm', { ok: { type: 'boolean' } }, ['ok']) });
    return text('state-ok');
  });
  tool('test_input_required_result_multiple_inputs', 'Asks three questions at once.', async (ctx) => {
    const answers = await ctx.ask({
      user_name: nameForm('What is your name?'),
      greeting: sample('Generate a greeting', 50),
      client_roots: roots,
    });
    return text(`Got ${Object.keys(answers).length} answers`);
  });
  tool('test_input_required_result_multi_round', 'Asks twice, one question per round.', async (ctx) => {
    const { step1 } = await ctx.ask({ step1: nameForm('Step 1: What is your name?') });
    const { step2 } = await ctx.ask({
      step2: elicit('Step 2: What is your favorite color?', { color: { type: 'string' } }, ['color']),
    });
    const name = (step1 as { content?: { name?: string } }).content?.name;
    const color = (step2 as { content?: { color?: string } }).content?.color;
    return text(`${name ?? 'someone'} likes ${color ?? 'some colour'}`);
  });
  tool('test_input_required_result_capabilities', 'Asks only what the client declared.', async (ctx) => {
    const questions: Record<string, ClientQuestion> = {};
    if (ctx.clientSupports('elicitation')) questions.user_name = nameForm('What is your name?');
    if (ctx.clientSupports('sampling')) questions.greeting = sample('Generate a greeting', 50);
    if (ctx.clientSupports('roots')) questions.client_roots = roots;
    if (Object.keys(questions).length === 0) return text('nothing to ask');
    const answers = await ctx.ask(questions);
    return text(`Got ${Object.keys(answers).length} answers`);
  });
  tool('test_missing_capability', 'Needs sampling.', async (ctx) => {
    const answer = await ctx.sample(sample('Say hello', 20).params);
    return text(sampledText(answer));
  });
  tool('test_streaming_elicitation', 'Asks for a name on a streamed call.', async (ctx) => {
    const { user_name } = await ctx.ask({ user_name: nameForm('What is your name?') });
    return text(`Hello, ${(user_name as { content?: { name?: string } }).content?.name ?? 'stranger'}!`);
  });
  reg.prompt({
    name: 'test_input_required_result_prompt',
    description: 'A prompt that asks for its context first.',
    handler: async (ctx) => {
      const { user_context } = await ctx.ask({
        user_context: elicit('What context should the prompt use?', { context: { type: 'string' } }, [
          'context',
        ]),
      });
      const context = (user_context as { content?: { context?: string } }).content?.context ?? '';
      return `Use this context: ${context}`;
    },
  });
}
