export type { IntrospectedVault } from './host.js';
export { PolicyIntrospector } from './introspection.js';
