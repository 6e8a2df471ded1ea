import { describe, expect, it } from 'vitest';
import { hashOf, routeOf, type Route } from '../../renderer/src/lib/nav.js';

describe('hash routes', () => {
  const ref = { bundleID: '0190a000-0000-7000-8000-00000000c0e0', slug: 'météo/天気 x', version: 'v1.2' };
  const routes: Route[] = [
    { name: 'tools', bundleID: null },
    { name: 'tools', bundleID: ref.bundleID },
    { name: 'tool', ref },
    { name: 'tool', ref, tab: 'history' },
    { name: 'tool', ref, args: '{"city":"São Paulo?&=#","n":[1,2]}' },
    { name: 'tool', ref, tab: 'tester', args: '{"q":"a+b c%"}' },
    { name: 'toolEdit', ref },
    { name: 'toolNew', bundleID: ref.bundleID },
    { name: 'bundleNew' },
    { name: 'bundleEdit', bundleID: ref.bundleID },
    { name: 'search', q: 'wêather / forecast' },
    { name: 'trash' },
    { name: 'secrets' },
    { name: 'settings' },
    { name: 'agents' },
    { name: 'audit' },
    { name: 'profiles' },
    { name: 'profileNew' },
    { name: 'profile', profileID: ref.bundleID },
  ];
  it.each(routes.map((r) => [hashOf(r), r] as const))('%s round-trips', (hash, route) => {
    expect(hash.startsWith('#/')).toBe(true);
    expect(routeOf(hash)).toEqual(route);
  });
  it('keeps the arguments out of the path: a tool link without them is the same tool', () => {
    expect(routeOf(hashOf({ name: 'tool', ref, args: '{"a":1}' })).name).toBe('tool');
    expect(hashOf({ name: 'tool', ref, args: '{"a":1}' })).toMatch(/\?args=%7B/);
    expect(routeOf('#/tool/b/s/v?args=')).toEqual({ name: 'tool', ref: { bundleID: 'b', slug: 's', version: 'v' } });
  });
  it('reads anything unknown or malformed as the list of all tools', () => {
    for (const h of ['', '#', '#/nope', '#/tool/only-one', '#token=abc', '#/tool/%E0%A4%A/x/y']) expect(routeOf(h).name).toMatch(/tools|tool/);
    expect(routeOf('#/nope')).toEqual({ name: 'tools', bundleID: null });
  });
});
