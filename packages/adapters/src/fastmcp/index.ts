// @cloudg/adapters/fastmcp: a cloudg layer inside a server of the npm `fastmcp` framework (4.x,
// an optional peer dependency of this package), and the server the `fastmcp` flavor runs.
export {
  createFastMCPServer,
  type FastMCPServer,
  type FastMCPServerOptions,
} from './create-fastmcp-server.js';
export { PRINCIPAL_AUTH_KEY } from './mount-session.js';
export { type FastMCPBinding, type FastMCPRegisterOptions, registerInto } from './register-into.js';
