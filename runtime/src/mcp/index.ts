/// <reference types="node" preserve="true" />
// `@autograms/runtime/mcp`: tools of MCP servers. A subpath of its own, so that the main entry's
// types do not need @modelcontextprotocol/sdk, an optional peer dependency.
export { mcpTools, type McpTools, type McpToolsOptions } from "./tools.js";
export { DEFAULT_MCP_LIMITS, type McpLimits } from "./limits.js";
export type { ServerHealth } from "./connection.js";
export {
  checkMcpConfig,
  importName,
  type McpConfig,
  type McpServerConfig,
  type StdioServer,
  type HttpServer,
} from "./config.js";
export { mcpDeclarations, typeOf, type ListedTool } from "./declarations.js";
