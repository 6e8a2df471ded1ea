/**
 * allowedHosts matching. Entries are host names compared with URL.hostname (lower-cased, IDNs
 * in their punycode form as URL gives them). `*.example.com` matches any sub-domain of
 * example.com at any depth but not example.com itself; list both when both are wanted.
 */
export function normalizeHostPattern(pattern: string): string {
  return pattern.trim().toLowerCase().replace(/\.$/, '');
}

export function hostMatches(hostname: string, pattern: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const p = normalizeHostPattern(pattern);
  if (p.startsWith('*.')) {
    const suffix = p.slice(1); // ".example.com"
    return host.length > suffix.length && host.endsWith(suffix);
  }
  return host === p;
}

export function isHostAllowed(hostname: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((p) => hostMatches(hostname, p));
}

/** Validates one allowedHosts entry; returns a message with the fix, or undefined. */
export function checkHostPattern(pattern: string): string | undefined {
  const p = normalizeHostPattern(pattern);
  if (!p) return 'an allowedHosts entry must not be empty';
  if (/[\s/:@?#]/.test(p)) return `allowedHosts entry '${pattern}' must be a bare host name such as api.example.com (no scheme, port, path or user)`;
  const body = p.startsWith('*.') ? p.slice(2) : p;
  if (body.includes('*')) return `allowedHosts entry '${pattern}': '*' is only allowed as a leading '*.' (e.g. *.example.com)`;
  if (!/^[a-z0-9.[\]-]+$/.test(body) && !/^[\p{L}\p{N}.-]+$/u.test(body)) return `allowedHosts entry '${pattern}' is not a valid host name`;
  return undefined;
}

export type TemplateHost = { ok: true; host: string } | { ok: false; reason: 'missing' | 'placeholder' | 'credentials' | 'invalid'; message: string };

/**
 * The literal host of an http tool's URL template (lower-case, IPv6 without brackets), or why
 * there is none. One rule for the core's save check, the importers and the editor: the host is
 * checked against allowedHosts, so it must be written literally.
 */
export function templateHost(urlTemplate: string): TemplateHost {
  const m = /^(https?):\/\/([^/?#]*)/i.exec(urlTemplate.trim());
  if (!m) return { ok: false, reason: 'missing', message: `must start with http:// or https:// (got '${urlTemplate.slice(0, 40)}')` };
  const authority = m[2]!;
  if (authority.includes('${')) {
    return {
      ok: false,
      reason: 'placeholder',
      message: 'the host must be written literally so it can be checked against allowedHosts; move the ${…} placeholder into the path or query',
    };
  }
  if (authority.includes('@')) {
    return {
      ok: false,
      reason: 'credentials',
      message: 'credentials in the URL are not allowed; send them in a header with a secret placeholder such as ${API_TOKEN}',
    };
  }
  if (!authority) return { ok: false, reason: 'missing', message: 'has no host' };
  try {
    const host = new URL(`${m[1]}://${authority}/`).hostname.replace(/^\[|\]$/g, '');
    if (!host) return { ok: false, reason: 'missing', message: 'has no host' };
    return { ok: true, host };
  } catch {
    return { ok: false, reason: 'invalid', message: `has an invalid host '${authority}'` };
  }
}
