import { distTestConfig } from '../../vitest.shared.ts';
import { cliTestOptions } from './vitest.config.ts';

export default distTestConfig(cliTestOptions);
