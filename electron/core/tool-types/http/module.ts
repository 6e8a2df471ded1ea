/** `http` tools: a templated HTTP call with secrets, allowed hosts and extraction. */
import type { FieldIssue } from '../../../../shared/errors.js';
import { isHostAllowed, templateHost } from '../../../../shared/net/hosts.js';
import { findPlaceholders, isSecretName, TOOL_VERSION_PLACEHOLDER } from '../../../../shared/template.js';
import type { Config } from '../../../../shared/schemas.js';
import { HttpImpl } from '../../../../shared/tool-types/http.js';
import { compileExtractExpr } from './extract.js';
import { argNames, httpSecretNames } from './request.js';
import { createHttpRunner } from './runner.js';
import type { ToolTypeModule } from '../tool-type.js';
import { headerNameProblem, headerValueProblem } from '../../../../shared/schema-primitives.js';
import { quoteKey } from '../../../../shared/limits.js';
import { defaultSafetyOf } from '../../../../shared/tool-types/default-safety.js';

/** An IPv6 host may be listed with or without its brackets. */
function hostAllowed(host: string, config: Config): boolean {
  return isHostAllowed(host, config.allowedHosts) || (host.includes(':') && isHostAllowed(`[${host}]`, config.allowedHosts));
}

function checkHost(url: string, field: string, config: Config, issues: FieldIssue[]): void {
  const h = templateHost(url);
  if (!h.ok) {
    issues.push({ field, message: h.message });
    return;
  }
  if (!hostAllowed(h.host, config)) {
    issues.push({
      field,
      message: `host '${h.host}' is not in config.allowedHosts; add it in Settings → Allowed hosts (or PATCH /tools/config {"allowedHosts":[…,"${h.host}"]})`,
    });
  }
}

function checkHttp(impl: HttpImpl, argSchema: unknown, config: Config): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const args = argNames(argSchema);
  checkHost(impl.urlTemplate, 'impl.urlTemplate', config, issues);
  const texts: [string, string][] = [['impl.urlTemplate', impl.urlTemplate]];
  if (impl.bodyTemplate !== undefined) texts.push(['impl.bodyTemplate', impl.bodyTemplate]);
  for (const [name, value] of Object.entries(impl.headers ?? {})) {
    const field = `impl.headers.${quoteKey(name)}`;
    texts.push([field, value]);
    const nameProblem = headerNameProblem(name);
    if (nameProblem) issues.push({ field, message: `header ${JSON.stringify(quoteKey(name, 64))} ${nameProblem}` });
    const valueProblem = headerValueProblem(value);
    if (valueProblem) issues.push({ field, message: valueProblem });
  }
  for (const [field, text] of texts) {
    for (const p of findPlaceholders(text)) {
      if (args.has(p.name) || isSecretName(p.name) || p.name === TOOL_VERSION_PLACEHOLDER) continue;
      issues.push({
        field,
        message: `\${${p.name}} is neither an argSchema property nor a secret name (secret names are UPPER_SNAKE_CASE); add '${p.name}' to argSchema.properties or correct the name`,
      });
    }
  }
  for (const name of Object.keys(impl.serialization ?? {})) {
    if (args.has(name)) continue;
    issues.push({
      field: `impl.serialization.${quoteKey(name)}`,
      message: `'${quoteKey(name, 64)}' is not an argSchema property; serialization styles apply to arguments only, so remove the entry or add the property`,
    });
  }
  if (impl.auth?.type === 'oauth2ClientCredentials') checkHost(impl.auth.tokenUrl, 'impl.auth.tokenUrl', config, issues);
  if (impl.extractExpr !== undefined) {
    // The runner's own compiler, so what saves is exactly what runs (JSONPath without filters
    // or scripts; regexes that cannot backtrack catastrophically).
    try {
      compileExtractExpr(impl.extractExpr);
    } catch (e) {
      issues.push({ field: 'impl.extractExpr', message: (e as Error).message });
    }
  }
  return issues;
}

export const httpType: ToolTypeModule<'http'> = {
  type: 'http',
  implSchema: HttpImpl,
  defaultSafety: (impl) => defaultSafetyOf('http', impl),
  check: (impl, ctx) => checkHttp(impl, ctx.argSchema, ctx.config),
  secretNames: (impl, argSchema) => httpSecretNames(impl, argNames(argSchema)),
  hostsCalled(impl) {
    const urls = [impl.urlTemplate];
    if (impl.auth?.type === 'oauth2ClientCredentials') urls.push(impl.auth.tokenUrl);
    const hosts: string[] = [];
    for (const u of urls) {
      if (typeof u !== 'string') continue;
      const h = templateHost(u);
      if (h.ok) hosts.push(h.host);
    }
    return hosts;
  },
  createRunner: ({ http }) => createHttpRunner(http),
};
