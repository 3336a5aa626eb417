/** The one route that speaks JSON-RPC (MCP Streamable HTTP, D17): its refusals are JSON-RPC errors too (P136). */
export const MCP_PATH = '/mcp';
