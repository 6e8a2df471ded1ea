/** The transports the CLI can start, loaded only by the commands that start them. */

export async function startHeadlessHost(options: import('../host/serve.js').ServeOptions): Promise<void> {
  const [{ startServe }, { listenFromEnv }] = await Promise.all([import('../host/serve.js'), import('../host/listen.js')]);
  // Flags win over the environment (the container image sets the environment).
  const env = listenFromEnv();
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  await startServe({ ...env, ...given, dataDir: options.dataDir, port: options.port });
}

export async function startStdioMcp(options: { dataDir: string; bundles?: string[]; profile?: string; version: string }): Promise<void> {
  const { runStdioServer } = await import('../host/mcp/entry/stdio.js');
  await runStdioServer(options);
}
