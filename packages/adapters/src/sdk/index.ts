// @cloudg/adapters/sdk: a cloudg layer inside the official MCP TypeScript SDK
// (`@modelcontextprotocol/server` 2.x, an optional peer dependency of this package).
export {
  createSdkHttpHandler,
  createSdkServer,
  type SdkHttpHandler,
  type SdkHttpHandlerOptions,
  type SdkServerOptions,
} from './create-sdk-server.js';
export { forwardChanges } from './forward-changes.js';
export { INCLUDE_KINDS, type IncludeKind } from './include-kinds.js';
export { restoringListenFilters } from './listen-filters.js';
export {
  type RegisterOptions,
  registerInto,
  type SdkBinding,
} from './register-into.js';
export { PRINCIPAL_AUTH_KEY } from './request-info.js';
