/**
 * Upstream MCP servers: `add-server` (probe, then create the bundle and sync, through the same
 * MCP import a claude_desktop_config.json takes, so secrets are moved the same way), `sync`,
 * `servers` (the upstream bundles with their state and review counts; `servers BUNDLE`: its tools
 * with their review state), `accept` (mark a tool reviewed, accepting the server's definition) and `authorize` (sign in to a server that
 * needs OAuth: the link is printed, the redirect comes back to this process).
 */
import type { Command } from 'commander';
import { needsReview, type BundleSource, type HttpSource, type ReviewCounts } from '../../../shared/upstream.js';
import type { McpServerImportItem, ToolView } from '../../../shared/types.js';
import { checkSlug } from '../../../shared/slug.js';
import type { CliContext } from '../context.js';
import type { CliSession } from '../session.js';
import { CliFailure } from '../failure.js';
import { collect } from '../args.js';
import { printJson, table } from '../output.js';
import { prompt, readStdin } from '../terminal.js';
import { allBundles, allTools } from '../pages.js';

function pairs(list: string[], option: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of list) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new CliFailure({ code: 'INVALID_INPUT', message: `${option} '${pair.slice(0, 60)}' must be NAME=value` });
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

function bundleExists(session: CliSession, slug: string): boolean {
  try {
    session.bundleID(slug);
    return true;
  } catch {
    return false;
  }
}

interface AddOptions {
  name?: string;
  url?: string;
  env: string[];
  header: string[];
  clientId?: string;
  clientSecret?: boolean;
  clientMetadataUrl?: string;
  scope: string[];
}

/** The secrets-store name of a server's pre-registered OAuth client secret. */
function clientSecretName(slug: string): string {
  const name = `${slug}_OAUTH_CLIENT_SECRET`.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
  return (/^[A-Z]/.test(name) ? name : `S_${name}`).slice(0, 128);
}

/** The sign-in settings the options give, checked; undefined when none was given. */
async function oauthOptions(
  o: AddOptions,
  slug: string,
): Promise<{ auth: NonNullable<HttpSource['auth']>; secret?: { name: string; value: string } } | undefined> {
  if (!o.clientId && !o.clientSecret && !o.clientMetadataUrl && !o.scope.length) return undefined;
  if (!o.url)
    throw new CliFailure({ code: 'INVALID_INPUT', message: '--client-id, --client-secret, --client-metadata-url and --scope are for a --url server' });
  if (o.clientSecret && !o.clientId) throw new CliFailure({ code: 'INVALID_INPUT', message: '--client-secret needs the --client-id it belongs to' });
  if (o.clientMetadataUrl && !/^https:\/\/[^/?#]+\/[^?#]+/.test(o.clientMetadataUrl)) {
    throw new CliFailure({
      code: 'INVALID_INPUT',
      message: `--client-metadata-url '${o.clientMetadataUrl.slice(0, 200)}' must be an https URL with a path (the client ID metadata document)`,
    });
  }
  let secret: { name: string; value: string } | undefined;
  if (o.clientSecret) {
    const value = process.stdin.isTTY ? await prompt(`client secret of ${o.clientId}: `, true) : (await readStdin()).replace(/\r?\n$/, '');
    if (!value) throw new CliFailure({ code: 'INVALID_INPUT', message: 'the client secret is empty; type it at the prompt or pipe it in' });
    secret = { name: clientSecretName(slug), value };
  }
  return {
    auth: {
      kind: 'oauth',
      ...(o.clientId ? { clientId: o.clientId } : {}),
      ...(secret ? { clientSecret: `\${${secret.name}}` } : {}),
      ...(o.clientMetadataUrl ? { clientMetadataUrl: o.clientMetadataUrl } : {}),
      ...(o.scope.length ? { scopes: o.scope } : {}),
    },
    ...(secret ? { secret } : {}),
  };
}

export function registerUpstreamCommands(program: Command, cli: CliContext): void {
  program
    .command('add-server <slug> [command...]')
    .description('add an upstream MCP server as a bundle: `add-server SLUG [--env K=V] -- COMMAND [ARGS…]` or `add-server SLUG --url URL [--header K=V]`')
    .option('--name <name>', 'display name of the bundle')
    .option('--url <url>', 'a Streamable HTTP server instead of a command')
    .option('--env <NAME=value>', 'environment of the command (repeatable); secret-looking names (*_TOKEN, *_KEY, …) go to the secrets store', collect, [])
    .option('--header <Name=value>', 'header for a --url server (repeatable); Authorization and other secrets go to the secrets store', collect, [])
    .option('--client-id <id>', 'sign in (OAuth) as this client, registered ahead with the authorization server (for servers that allow no registration)')
    .option('--client-secret', "that client's secret, read from stdin or a hidden prompt (never from the command line), kept in the secrets store")
    .option('--client-metadata-url <url>', "Toolwright's client ID metadata document (https), the client ID where the authorization server supports one")
    .option('--scope <scope>', 'an OAuth scope to ask for when signing in, besides what the server asks for (repeatable)', collect, [])
    .action(async (slug: string, command: string[], o: AddOptions) => {
      const checked = checkSlug(slug);
      if (!checked.ok) throw new CliFailure({ code: 'INVALID_INPUT', message: `slug '${slug}': ${checked.message}` });
      if (!o.url && !command.length) {
        throw new CliFailure({ code: 'INVALID_INPUT', message: 'give the server to start after -- (add-server SLUG -- npx -y @scope/server) or --url URL' });
      }
      if (o.url && command.length) throw new CliFailure({ code: 'INVALID_INPUT', message: 'give either --url or a command after --, not both' });
      if (o.url && o.env.length) throw new CliFailure({ code: 'INVALID_INPUT', message: '--env is for a command; a --url server takes --header' });
      if (!o.url && o.header.length) throw new CliFailure({ code: 'INVALID_INPUT', message: '--header is for a --url server; a command takes --env' });
      const env = pairs(o.env, '--env');
      const headers = pairs(o.header, '--header');
      const oauth = await oauthOptions(o, checked.value);
      const session = await cli.session();
      if (bundleExists(session, checked.value)) {
        throw new CliFailure({
          code: 'CONFLICT',
          message: `a bundle '${checked.value}' exists already; pick another slug (or \`toolwright sync ${checked.value}\`)`,
        });
      }
      const entry = o.url ? { type: 'http', url: o.url, headers } : { command: command[0]!, args: command.slice(1), env };
      const probeSource: BundleSource = o.url
        ? { kind: 'mcp', transport: 'http', url: o.url, headers }
        : { kind: 'mcp', transport: 'stdio', command: command[0]!, args: command.slice(1), env };
      // Probe first: a command that does not exist or a URL that is not MCP leaves nothing behind.
      const probe = await session.call('servers.probe', { source: probeSource });
      const report = await session.call('bundles.importMcpServers', { content: JSON.stringify({ mcpServers: { [checked.value]: entry } }), sync: false });
      const item = report.mcpServers?.[0];
      if (!item || item.status !== 'created' || !item.bundleID) {
        throw new CliFailure({ code: 'INVALID_INPUT', message: `the server was not added: ${item?.reason ?? 'no bundle was created'}` });
      }
      if (oauth?.secret) await session.call('secrets.set', oauth.secret);
      if (o.name || oauth) {
        const b = await session.call('bundles.get', { bundleID: item.bundleID });
        const source = oauth && b.source?.transport === 'http' ? { ...b.source, auth: oauth.auth } : undefined;
        const bundle = {
          slug: b.slug,
          displayName: o.name ?? b.displayName,
          ...(b.description ? { description: b.description } : {}),
          ...(source ? { source } : {}),
        };
        await session.call('bundles.put', { bundleID: item.bundleID, bundle });
      }
      const secretsStored = [...(item.secretsStored ?? []), ...(oauth?.secret ? [oauth.secret.name] : [])];
      if (probe.needsAuthorization) {
        if (cli.json()) return printJson({ bundleID: item.bundleID, slug: item.slug, needsAuthorization: true, secretsStored });
        process.stdout.write(
          `added ${item.slug}: the server needs you to sign in before it lists its tools; run \`toolwright authorize ${item.slug}\`, then \`toolwright sync ${item.slug}\`\n`,
        );
        return;
      }
      const sync = await session.call('servers.sync', { bundleID: item.bundleID });
      if (cli.json()) return printJson({ bundleID: item.bundleID, slug: item.slug, server: probe.server, secretsStored, sync });
      const lines = [
        `added ${item.slug}${probe.server ? ` (${probe.server.name} ${probe.server.version})` : ''}: ${sync.added.length} tool(s), switched off until you enable them`,
        ...sync.added.map((t) => `  + ${item.slug}/${t.slug}${t.slug !== t.name ? `  (${t.name})` : ''}`),
        ...(secretsStored.length ? [`secrets stored: ${secretsStored.join(', ')}`] : []),
      ];
      process.stdout.write(lines.join('\n') + '\n');
    });

  program
    .command('sync <bundle>')
    .description("sync an upstream server's tools: new ones arrive switched off, changed definitions are withheld until accepted")
    .option('--dry-run', 'say what would change, write nothing')
    .action(async (slug: string, o: { dryRun?: boolean }) => {
      const session = await cli.session();
      const bundleID = session.bundleID(slug);
      const report = await session.call('servers.sync', { bundleID, dryRun: o.dryRun === true });
      if (cli.json()) return printJson(report);
      const lines = [
        `${o.dryRun ? 'would sync' : 'synced'} ${slug}${report.server ? ` (${report.server.name} ${report.server.version})` : ''}: ${report.added.length} new, ${report.changed.length} changed, ${report.gone.length} gone, ${report.unchanged} unchanged`,
        ...report.added.map((t) => `  + ${t.slug}  (new, switched off)`),
        ...report.changed.map((t) => `  ~ ${t.slug}  (definition changed: withheld until accepted in the app or over REST)`),
        ...report.gone.map((t) => `  - ${t.slug}  (no longer offered: kept, unavailable)`),
      ];
      process.stdout.write(lines.join('\n') + '\n');
    });

  program
    .command('authorize <bundle>')
    .description('sign in (OAuth) to the HTTP server of an upstream bundle: prints the link to open in a browser and waits for the sign-in to finish')
    .option('--timeout <seconds>', 'give up after this many seconds', '600')
    .action(async (slug: string, o: { timeout: string }) => {
      const session = await cli.session();
      const bundleID = session.bundleID(slug);
      const started = await session.call('servers.authorize', { bundleID });
      if (!started.authorizationUrl) {
        process.stdout.write(`${slug}: the stored sign-in was renewed; no browser needed\n`);
        return;
      }
      if (cli.json()) printJson({ bundleID, authorizationUrl: started.authorizationUrl });
      else
        process.stdout.write(
          `Open this link in a browser to sign in to ${slug}:\n\n  ${started.authorizationUrl}\n\nWaiting for the sign-in to finish (Ctrl-C to give up)…\n`,
        );
      const end = Date.now() + Math.max(1, Number(o.timeout) || 600) * 1000;
      for (;;) {
        const status = await session.call('servers.status', { bundleID });
        if (status.authorizationUrl !== started.authorizationUrl) {
          if (status.state === 'needs-authorization')
            throw new CliFailure({ code: 'TOOL_UNAVAILABLE', message: status.lastError ?? 'the sign-in did not finish' });
          if (!cli.json()) process.stdout.write(`signed in to ${slug}${status.server ? ` (${status.server.name} ${status.server.version})` : ''}\n`);
          return;
        }
        if (Date.now() > end)
          throw new CliFailure({ code: 'TIMEOUT', message: `nobody signed in within ${o.timeout} s; run \`toolwright authorize ${slug}\` again` });
        await new Promise((r) => setTimeout(r, 250));
      }
    });

  program
    .command('accept <tool>')
    .description(
      "mark an upstream tool reviewed (<bundle>/<tool>[@version]): accepts the server's current definition, pinned by its hash (a changed tool's new one: see the difference first with --diff)",
    )
    .option('--diff', 'print the accepted and the current definition and accept nothing')
    .action(async (target: string, o: { diff?: boolean }) => {
      const session = await cli.session();
      const ref = session.toolKey(target);
      const review = await session.call('tools.definition', ref);
      if (o.diff) {
        if (cli.json()) return printJson(review);
        process.stdout.write(
          `accepted (${review.accepted.hash}):\n${JSON.stringify({ description: review.accepted.description, inputSchema: review.accepted.argSchema }, null, 2)}\n`,
        );
        process.stdout.write(
          review.upstream
            ? `server now (${review.upstream.hash}):\n${JSON.stringify({ description: review.upstream.definition.description ?? '', inputSchema: review.upstream.definition.inputSchema }, null, 2)}\n`
            : 'the server no longer offers it: nothing to accept\n',
        );
        return;
      }
      if (!review.upstream)
        throw new CliFailure({
          code: 'NOT_FOUND',
          message: `the server no longer offers '${review.name}': there is nothing to accept; sync, or delete the tool`,
        });
      // Exactly what was read: if the server changed it again meanwhile, the core refuses (MODIFIED_ELSEWHERE).
      const tool = await session.call('tools.acceptDefinition', { ...ref, definitionHash: review.upstream.hash });
      if (cli.json()) return printJson(tool);
      process.stdout.write(`${target}: ${review.changed ? 'accepted the new definition' : 'marked reviewed'} (${review.upstream.hash.slice(0, 19)}…)\n`);
    });

  program
    .command('servers [bundle]')
    .description(
      'the upstream MCP servers (bundles with a source), their state and their tools by review state; with a bundle, its tools and the review state of each',
    )
    .option('--needs-review', 'with a bundle: only the tools a person still has to review (new, changed, gone)')
    .action(async (slug: string | undefined, o: { needsReview?: boolean }) => {
      const session = await cli.session();
      if (slug !== undefined) return serverTools(cli, session, slug, o.needsReview === true);
      if (o.needsReview)
        throw new CliFailure({ code: 'INVALID_INPUT', message: '--needs-review lists the tools of one server: `toolwright servers BUNDLE --needs-review`' });
      const bundles = (await allBundles(session, { includeDisabled: true })).filter((b) => b.source);
      const rows = [];
      for (const b of bundles) {
        const status = await session.call('servers.status', { bundleID: b.bundleID });
        const tools: ToolView[] = await allTools(session, { bundleIDs: [b.bundleID], includeDisabled: true });
        const target = b.source!.transport === 'http' ? b.source!.url : [b.source!.command, ...(b.source!.args ?? [])].join(' ');
        rows.push({ bundle: b, status, tools, target });
      }
      if (cli.json()) return printJson(rows.map((r) => ({ bundleID: r.bundle.bundleID, slug: r.bundle.slug, source: r.bundle.source, status: r.status })));
      process.stdout.write(
        table(
          rows.map((r) => [
            r.bundle.slug,
            r.status.state + (r.status.lastError ? ` (${r.status.lastError.slice(0, 80)})` : ''),
            `${r.tools.filter((t) => t.isEnabled).length}/${r.tools.length}`,
            reviewSummary(r.status.review),
            r.status.syncedAt ?? 'never',
            r.target.slice(0, 80),
          ]),
          ['BUNDLE', 'STATE', 'ON/TOOLS', 'REVIEW', 'SYNCED', 'SERVER'],
        ),
      );
    });
}

/** A server's tools by review state, in a few words: what needs a person first. */
export function reviewSummary(counts: ReviewCounts | undefined): string {
  if (!counts) return '-';
  const needs = (['new', 'changed', 'gone'] as const).filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`);
  if (needs.length) return needs.join(', ');
  return counts.accepted ? 'all accepted' : 'no tools';
}

/** `servers BUNDLE`: the server's tools with their review state (the tool view's `review`), needing a person first. */
async function serverTools(cli: CliContext, session: CliSession, slug: string, needsReviewOnly: boolean): Promise<void> {
  const bundleID = session.bundleID(slug);
  const bundle = await session.call('bundles.get', { bundleID });
  if (!bundle.source) throw new CliFailure({ code: 'INVALID_INPUT', message: `bundle '${slug}' has no upstream MCP server (its bundle.json has no source)` });
  const order: Record<string, number> = { changed: 0, gone: 1, new: 2, accepted: 3 };
  const tools = (await allTools(session, { bundleIDs: [bundleID], includeDisabled: true }))
    .filter((t) => !needsReviewOnly || needsReview(t.review?.state))
    .sort((a, b) => (order[a.review?.state ?? ''] ?? 4) - (order[b.review?.state ?? ''] ?? 4) || a.slug.localeCompare(b.slug));
  if (cli.json()) return printJson(tools);
  if (!tools.length) {
    process.stdout.write(needsReviewOnly ? `${slug}: nothing to review\n` : `${slug}: no tools yet; run \`toolwright sync ${slug}\`\n`);
    return;
  }
  process.stdout.write(
    table(
      tools.map((t) => [
        `${slug}/${t.slug}@${t.version}`,
        (t.impl as { tool?: string }).tool ?? '',
        t.review?.state ?? '-',
        t.isEnabled ? 'on' : 'off',
        t.availability.ok ? 'available' : `unavailable: ${(t.availability.reason ?? '').slice(0, 100)}`,
      ]),
      ['TOOL', 'UPSTREAM NAME', 'REVIEW', 'ENABLED', 'AVAILABILITY'],
    ),
  );
}

/** The lines an MCP import prints for each server. */
export function mcpServerLines(items: McpServerImportItem[], dryRun: boolean): string[] {
  return items.flatMap((s) => {
    if (s.status === 'skipped') return [`  - ${s.name}: not imported: ${s.reason}`];
    const lines = [`  + ${s.slug}${s.slug !== s.name ? `  (${s.name})` : ''}  ${s.transport}`];
    if (s.secretsStored?.length) lines.push(`      secrets ${dryRun ? 'to store' : 'stored'}: ${s.secretsStored.join(', ')}`);
    for (const n of s.secretsNeeded ?? []) lines.push(`      set it: toolwright secrets set ${n.name}${n.description ? `   (${n.description})` : ''}`);
    if (s.sync?.status === 'synced') lines.push(`      synced: ${s.sync.tools?.length ?? 0} tool(s), switched off until you enable them`);
    else if (s.sync) lines.push(`      not synced: ${s.sync.error}`);
    return lines;
  });
}
