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
  if (!/^[a-z0-9.\-\[\]]+$/.test(body) && !/^[\p{L}\p{N}.\-]+$/u.test(body)) return `allowedHosts entry '${pattern}' is not a valid host name`;
  return undefined;
}
