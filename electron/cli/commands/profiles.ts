/** `profiles`: list, add, show, remove a profile, and make or revoke its tokens, through the profiles.* operations. */
import type { Command } from 'commander';
import { v7 as uuidv7 } from 'uuid';
import type { ProfileSummary } from '../../../shared/agents/profiles.js';
import type { CliContext } from '../context.js';
import type { CliSession } from '../session.js';
import { CliFailure } from '../failure.js';
import { collect } from '../args.js';
import { printJson, table } from '../output.js';

async function profileBySlug(session: CliSession, slug: string): Promise<ProfileSummary> {
  const p = (await session.call('profiles.list', {})).items.find((i) => i.slug === slug.normalize('NFC'));
  if (!p) throw new CliFailure({ code: 'NOT_FOUND', message: `no profile '${slug}'; see toolwright profiles` });
  return p;
}

interface AddOptions {
  bundle: string[];
  include: string[];
  exclude: string[];
  mode?: string;
  name?: string;
}

export function registerProfileCommands(program: Command, cli: CliContext): void {
  const profiles = program
    .command('profiles')
    .description('profiles: MCP addresses of their own (/mcp/p/<slug>, mcp --profile <slug>) with their own tools and tokens')
    .action(async () => {
      const session = await cli.session();
      const { items } = await session.call('profiles.list', {});
      if (cli.json()) return printJson(items);
      const missing = (p: ProfileSummary) => p.missing.bundles.length + p.missing.tools.length;
      process.stdout.write(
        table(
          items.map((p) => [p.slug, p.mode, String(p.toolCount), missing(p) ? `${missing(p)} missing` : '']),
          ['PROFILE', 'MODE', 'TOOLS', ''],
        ),
      );
    });

  profiles
    .command('add <slug>')
    .description('create a profile from bundles (--bundle, repeatable), plus --include and minus --exclude tools (<bundle>/<tool>[@version])')
    .option('--bundle <slug>', 'a bundle whose tools it offers (repeatable)', collect, [])
    .option('--include <tool>', 'a tool from another bundle (repeatable)', collect, [])
    .option('--exclude <tool>', 'a tool left out (repeatable)', collect, [])
    .option('--mode <mode>', 'all (every tool listed) or search (search_tools, describe_tools, call_tool)')
    .option('--name <name>', 'display name')
    .action(async (slug: string, o: AddOptions) => {
      if (o.mode !== undefined && o.mode !== 'all' && o.mode !== 'search') {
        throw new CliFailure({ code: 'INVALID_INPUT', message: `--mode must be all or search (got '${o.mode}')` });
      }
      const session = await cli.session();
      const toolID = async (ref: string) => (await session.call('tools.get', session.toolKey(ref))).toolID;
      const { profile } = await session.call('profiles.put', {
        profileID: uuidv7(),
        profile: {
          slug,
          ...(o.name ? { displayName: o.name } : {}),
          bundles: o.bundle.map((b) => session.bundleID(b)),
          include: await Promise.all(o.include.map(toolID)),
          exclude: await Promise.all(o.exclude.map(toolID)),
          mode: o.mode === 'search' ? 'search' : 'all',
        },
      });
      if (cli.json()) return printJson(profile);
      process.stdout.write(
        `added profile ${profile.slug} (${profile.mode}): ${profile.toolCount} tool(s); MCP at /mcp/p/${profile.slug} or toolwright mcp --profile ${profile.slug}\n`,
      );
    });

  profiles
    .command('show <slug>')
    .description("a profile's tools as its agents see them")
    .action(async (slug: string) => {
      const session = await cli.session();
      const p = await session.call('profiles.get', { profileID: (await profileBySlug(session, slug)).profileID });
      if (cli.json()) return printJson(p);
      process.stdout.write(`${p.slug} (${p.mode}): ${p.toolCount} tool(s)\n`);
      process.stdout.write(
        table(
          p.tools.map((t) => [t.name, `${t.slug}@${t.version}`, t.overridden ? 'overridden' : '']),
          ['NAME', 'TOOL', ''],
        ),
      );
      for (const id of p.missing.bundles) process.stdout.write(`missing bundle ${id}\n`);
      for (const id of p.missing.tools) process.stdout.write(`missing tool ${id}\n`);
    });

  profiles
    .command('remove <slug>')
    .description('delete a profile and its tokens')
    .action(async (slug: string) => {
      const session = await cli.session();
      await session.call('profiles.delete', { profileID: (await profileBySlug(session, slug)).profileID });
      if (cli.json()) return printJson({ deleted: true });
      process.stdout.write(`removed profile ${slug}\n`);
    });

  profiles
    .command('token <slug>')
    .description('make a token that opens only this profile (printed once)')
    .option('--label <label>', 'what the token is for')
    .action(async (slug: string, o: { label?: string }) => {
      const session = await cli.session();
      const created = await session.call('profiles.tokens.create', {
        profileID: (await profileBySlug(session, slug)).profileID,
        ...(o.label ? { label: o.label } : {}),
      });
      if (cli.json()) return printJson(created);
      process.stdout.write(`${created.token}\n`);
      process.stderr.write(`token ${created.tokenID} (${created.label}) for profile ${slug}: shown once, keep it now\n`);
    });

  profiles
    .command('revoke <slug> <tokenID>')
    .description("revoke one of a profile's tokens")
    .action(async (slug: string, tokenID: string) => {
      const session = await cli.session();
      await session.call('profiles.tokens.revoke', { profileID: (await profileBySlug(session, slug)).profileID, tokenID });
      if (cli.json()) return printJson({ revoked: true });
      process.stdout.write(`revoked token ${tokenID} of profile ${slug}\n`);
    });
}
