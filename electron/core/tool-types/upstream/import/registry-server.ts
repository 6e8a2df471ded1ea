/**
 * An MCP registry `server.json` (static.modelcontextprotocol.io/schemas/…/server.schema.json):
 * its npm package is started with `npx -y <name>@<version>`, else its Streamable HTTP remote is
 * reached. Environment variables, arguments and headers marked `isSecret` go to the secrets
 * store (or are reported as needed when the file holds no value). Both the current camelCase
 * fields and the early snake_case ones are read.
 */
import { eachServer, httpSource, ServerRefused, stdioSource, type ReadServers, type SecretNames, type SlugAllocator } from './drafts.js';
import { isPlainObject } from '../../../../../shared/plain-object.js';

function field(o: Record<string, unknown>, camel: string): unknown {
  return o[camel] ?? o[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

function str(o: Record<string, unknown>, camel: string): string | undefined {
  const v = field(o, camel);
  return typeof v === 'string' ? v : undefined;
}

function list(o: Record<string, unknown>, camel: string): Record<string, unknown>[] {
  const v = field(o, camel);
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}

/** A registry "input" (variable, argument, header): its value, a stored secret, or one the person sets. */
function inputValue(input: Record<string, unknown>, key: string, names: SecretNames): string | undefined {
  const value = str(input, 'value') ?? str(input, 'default');
  const secret = field(input, 'isSecret') === true;
  const description = str(input, 'description');
  if (secret) return value ? names.stored(key, value, description) : names.needed(key, description);
  if (value !== undefined) return value;
  return field(input, 'isRequired') === true ? names.needed(key, description) : undefined;
}

function argumentsOf(args: Record<string, unknown>[], names: SecretNames): string[] {
  const out: string[] = [];
  for (const a of args) {
    const name = str(a, 'name');
    const value = inputValue(a, name ?? str(a, 'valueHint') ?? 'ARG', names) ?? str(a, 'valueHint');
    if (field(a, 'type') === 'named') {
      if (!name) continue;
      out.push(name);
      if (value !== undefined) out.push(value);
    } else if (value !== undefined) out.push(value);
  }
  return out;
}

export function isRegistryServer(doc: Record<string, unknown>): boolean {
  return typeof doc['name'] === 'string' && (Array.isArray(doc['packages']) || Array.isArray(doc['remotes']));
}

export function readRegistryServer(doc: Record<string, unknown>, allocate: SlugAllocator): ReadServers {
  const name = String(doc['name']);
  const read = eachServer(
    [[name, doc]],
    allocate,
    (_name, server, names) => {
      const packages = list(server, 'packages');
      const npm = packages.find((p) => field(p, 'registryType') === 'npm' || field(p, 'registryName') === 'npm');
      const warnings: string[] = [];
      const title = str(server, 'title') ?? name;
      const description = str(server, 'description') ?? '';
      if (npm) {
        const identifier = str(npm, 'identifier') ?? str(npm, 'name');
        if (!identifier || !/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(identifier)) throw new ServerRefused('its npm package has no valid identifier');
        const transport = field(npm, 'transport');
        const transportType = isPlainObject(transport) ? transport['type'] : 'stdio';
        if (transportType !== undefined && transportType !== 'stdio') {
          throw new ServerRefused(`its npm package speaks '${String(transportType)}', not stdio; start it yourself and add its URL`);
        }
        const version = str(npm, 'version') ?? str(doc, 'version');
        const spec = version && version !== 'latest' ? `${identifier}@${version}` : identifier;
        const runtime = argumentsOf(list(npm, 'runtimeArguments'), names);
        const args = [...(runtime.length ? runtime : ['-y']), spec, ...argumentsOf(list(npm, 'packageArguments'), names)];
        const env: Record<string, string> = {};
        for (const v of list(npm, 'environmentVariables')) {
          const key = str(v, 'name');
          if (!key) continue;
          const value = inputValue(v, key, names);
          if (value !== undefined) env[key] = value;
        }
        const command = str(npm, 'runtimeHint') ?? 'npx';
        return { displayName: title, description, source: stdioSource(command, args, env, names), warnings };
      }
      const remote = list(server, 'remotes').find((r) => r['type'] === 'streamable-http' || r['type'] === 'http');
      if (remote && typeof remote['url'] === 'string') {
        const headers: Record<string, string> = {};
        for (const h of list(remote, 'headers')) {
          const key = str(h, 'name');
          if (!key) continue;
          const value = inputValue(h, key, names);
          if (value !== undefined) headers[key] = value;
        }
        if (!/^https?:\/\//i.test(remote['url'])) throw new ServerRefused(`its remote url '${remote['url'].slice(0, 200)}' is not an http(s) address`);
        if (/\{[^}]+\}/.test(remote['url'])) throw new ServerRefused(`its remote url '${remote['url'].slice(0, 200)}' has {variables}; fill them in the file`);
        return { displayName: title, description, source: httpSource(remote['url'], headers, names), warnings };
      }
      const kinds = [
        ...packages.map((p) => String(field(p, 'registryType') ?? field(p, 'registryName'))),
        ...list(server, 'remotes').map((r) => String(r['type'])),
      ];
      throw new ServerRefused(
        `offers no npm package and no Streamable HTTP remote (it has: ${kinds.join(', ') || 'nothing'}); Toolwright starts npm packages with npx and reaches Streamable HTTP remotes`,
      );
    },
    true,
  );
  return { format: 'registry', ...read };
}
