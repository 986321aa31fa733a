/**
 * AI and machine-learning providers: OpenAI, Anthropic, Hugging Face, Perplexity, Groq,
 * Replicate, xAI, NVIDIA, OpenRouter, LangSmith, and the ones only a label gives away
 * (Cohere, Mistral, Weights & Biases, Private AI).
 */
import { labelled, token } from '../define.js';
import type { Detector } from '../types.js';

export function aiDetectors(): Detector[] {
  return [
    // Every OpenAI key holds `T3BlbkFJ` (base64 of "OpenAI") between two random halves.
    token({
      name: 'openai_api_key',
      prefix: 'sk-(?:proj-|svcacct-|admin-|None-|service-)?',
      body: '[A-Za-z0-9_-]{20,80}T3BlbkFJ[A-Za-z0-9_-]{20,80}',
      before: 'A-Za-z0-9_-',
      hints: ['t3blbkfj'],
      minLength: 51,
    }),
    // `sk-ant-api03-` (API) and `sk-ant-admin01-` (Admin API) keys: 93 characters, then `AA`.
    token({
      name: 'anthropic_api_key',
      prefix: String.raw`sk-ant-(?:api|admin|oat|ort|sid)\d\d-`,
      body: '[A-Za-z0-9_-]{80,120}',
      before: 'A-Za-z0-9_-',
      hints: ['sk-ant-'],
      minLength: 93,
    }),
    token({
      name: 'huggingface_token',
      prefix: 'hf_|api_org_',
      body: '[A-Za-z0-9]{34}',
      hints: ['hf_', 'api_org_'],
      minLength: 37,
    }),
    token({
      name: 'perplexity_api_key',
      prefix: 'pplx-',
      body: '[A-Za-z0-9]{48}',
      hints: ['pplx-'],
      minLength: 53,
    }),
    token({ name: 'groq_api_key', prefix: 'gsk_', body: '[A-Za-z0-9]{52}', hints: ['gsk_'], minLength: 56 }),
    token({
      name: 'replicate_api_token',
      prefix: 'r8_',
      body: '[A-Za-z0-9]{37}',
      hints: ['r8_'],
      minLength: 40,
    }),
    token({ name: 'xai_api_key', prefix: 'xai-', body: '[A-Za-z0-9]{80}', hints: ['xai-'], minLength: 84 }),
    token({
      name: 'nvidia_api_key',
      prefix: 'nvapi-',
      body: '[A-Za-z0-9_-]{64}',
      hints: ['nvapi-'],
      minLength: 70,
    }),
    token({
      name: 'openrouter_api_key',
      prefix: 'sk-or-v1-',
      body: '[a-f0-9]{64}',
      before: 'A-Za-z0-9_-',
      hints: ['sk-or-v1-'],
      minLength: 73,
    }),
    token({
      name: 'langsmith_api_key',
      prefix: 'lsv2_(?:pt|sk)_',
      body: '[a-f0-9]{32}_[a-f0-9]{10}',
      hints: ['lsv2_pt_', 'lsv2_sk_'],
      minLength: 51,
    }),
    labelled({
      name: 'ai_service_key_labelled',
      keywords: ['cohere', 'co_api_key', 'mistral', 'wandb', 'private_?ai', 'deepseek', 'together'],
      hints: ['cohere', 'co_api_key', 'mistral', 'wandb', 'private_ai', 'privateai', 'deepseek', 'together'],
      value: '[a-z0-9]{32}|[a-z0-9]{40}|sk-[a-f0-9]{32}|[a-f0-9]{64}',
      minLength: 36,
    }),
  ];
}
