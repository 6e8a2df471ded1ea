/**
 * `serve` and `mcp`: they start transports (the headless host with REST and MCP, the stdio MCP
 * server), which reach the core through the contract themselves; so they open no CLI session.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliFailure } from '../failure.js';
import { startHeadlessHost, startStdioMcp } from '../transports.js';

interface ServeFlags {
  port: string;
  listen?: string;
  publicUrl?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindProxy?: string;
  tokenFile?: string;
  oauthIssuer?: string;
  oauthAudience?: string;
}

export function registerServeCommands(program: Command, cli: CliContext): void {
  program
    .command('serve')
    .description('run the headless host: the app in a browser, the REST API and MCP at /mcp')
    .option('--port <n>', 'port on 127.0.0.1', '7420')
    .option('--listen <addr>', 'address[:port] to listen on; beyond loopback it needs TLS or --behind-proxy, and --public-url')
    .option('--public-url <url>', 'the https:// address people and agents use (Host and Origin checks accept it)')
    .option('--tls-cert <file>', 'PEM certificate: serve HTTPS')
    .option('--tls-key <file>', 'PEM private key of --tls-cert')
    .option('--behind-proxy <addr>', 'the TLS proxy in front (address or CIDR), the only peer accepted')
    .option('--token-file <file>', 'keep the host token in this file (made on first start, 0600)')
    .option('--oauth-issuer <url>', "the team's OAuth authorization server: its access tokens are accepted on /mcp and /tools")
    .option('--oauth-audience <url>', 'the aud its tokens must carry (default: the public URL + /mcp)')
    .action(async (o: ServeFlags) => {
      const port = Number(o.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new CliFailure({ code: 'INVALID_INPUT', message: `--port must be 0–65535 (got '${o.port}')` });
      const { listen, publicUrl, tlsCert, tlsKey, behindProxy, tokenFile, oauthIssuer, oauthAudience } = o;
      await startHeadlessHost({ dataDir: cli.dataDir(), port, listen, publicUrl, tlsCert, tlsKey, behindProxy, tokenFile, oauthIssuer, oauthAudience });
      await new Promise(() => undefined); // until a signal
    });

  program
    .command('mcp')
    .description('run the MCP server on stdin/stdout (agents start this as a subprocess)')
    .option('--bundles <slugs>', 'only these bundles, comma-separated')
    .option('--profile <slug>', "a profile's address: its tools, instructions and mode (toolwright profiles)")
    .action(async (o: { bundles?: string; profile?: string }) => {
      if (o.bundles && o.profile) throw new CliFailure({ code: 'INVALID_INPUT', message: 'give --bundles or --profile, not both' });
      const bundles = o.bundles
        ? o.bundles
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined;
      await startStdioMcp({ dataDir: cli.dataDir(), ...(bundles ? { bundles } : {}), ...(o.profile ? { profile: o.profile } : {}), version: cli.version });
      await new Promise(() => undefined); // until stdin closes
    });
}
