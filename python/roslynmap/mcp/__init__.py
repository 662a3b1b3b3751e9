"""The MCP face of roslynmap: tool registry, the response envelope and budgets, the server."""
