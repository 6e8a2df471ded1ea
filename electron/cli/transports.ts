/** The transports the CLI can start, loaded only by the commands that start them. */

export async function startHeadlessHost(options: { dataDir: string; port: number }): Promise<void> {
  const { startServe } = await import('../host/serve.js');
  await startServe(options);
}

export async function startStdioMcp(options: { dataDir: string; bundles?: string[]; profile?: string; version: string }): Promise<void> {
  const { runStdioServer } = await import('../host/mcp/stdio.js');
  await runStdioServer(options);
}
