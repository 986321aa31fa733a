// @cloudg/adapters: a cloudg layer outside its own servers. This entry point is framework-free:
// the export of section 9 (definitions and handlers that go through the layer). Each framework has
// its own entry point, whose framework is an optional peer dependency:
//   @cloudg/adapters/sdk        the official MCP SDK's McpServer and Server
//   @cloudg/adapters/openai     OpenAI function tools
//   @cloudg/adapters/anthropic  Anthropic tools
//   @cloudg/adapters/ai         Vercel AI SDK tools
export {
  type ExportedDefinitions,
  exportDefinitions,
  type MethodHandler,
  type ServerDescription,
  type ToolFunction,
} from './export/export-definitions.js';
export { type DispatchOptions, MCP_METHODS, type McpMethod } from './export/layer-methods.js';
