// MCP server entry: see issue 4.
