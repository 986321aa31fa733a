import { distTestConfig } from '../../vitest.shared.ts';
import { privacyTestOptions } from './vitest.config.ts';

export default distTestConfig(privacyTestOptions);
