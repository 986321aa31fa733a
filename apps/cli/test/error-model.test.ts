/** One error model: the CLI's error is core's `McpLayerError`, with its exit status in `data`. */
import { McpLayerError } from '@cloudg/core';
import { expect, it } from 'vitest';
import * as cli from '../src/index.js';

it('CliError is an McpLayerError with a code and its exit status, and the only error class exported', () => {
  const exported = Object.entries(cli)
    .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
    .map(([name]) => name);
  expect(exported).toEqual(['CliError']);
  const error = new cli.CliError('Invalid value for --port', 2);
  expect(error).toBeInstanceOf(McpLayerError);
  expect(error).toMatchObject({ name: 'CliError', code: 'cli_error', exitCode: 2, data: { exit_code: 2 } });
});
