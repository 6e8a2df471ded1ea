import { describe, expect, it } from 'vitest';
import type { ToolFile } from '../../../../shared/schemas.js';
import { ToolSearchIndex, type SearchResultItem } from '../../../../electron/core/search/search-index.js';
import { CoreError } from '../../../../electron/core/errors.js';
import { fixtureID as id, prng, searchBundle, searchTool } from '../../../helpers/search-fixtures.js';

const BUNDLE = searchBundle({ bundleID: id(900_000), slug: 'paging', displayName: 'Paging' });

function tool(n: number, slug: string, description: string, day: number): ToolFile {
  return searchTool({
    toolID: id(n),
    bundleID: BUNDLE.bundleID,
    slug,
    displayName: slug,
    description,
    modifiedAt: new Date(Date.UTC(2025, 0, 1 + day)).toISOString(),
  });
}

/** Tools matching "alpha" in every tier and with many equal timestamps, so toolID breaks ties. */
function randomAlphaTool(n: number, random: () => number): ToolFile {
  const kind = Math.floor(random() * 4);
  const day = Math.floor(random() * 5);
  if (kind === 0) return tool(n, `alpha-${n}`, 'first in line', day); // prefix
  if (kind === 1) return tool(n, `tool-${n}`, 'mentions alpha here', day); // whole word
  if (kind === 2) return tool(n, `tool-${n}`, 'the alphabet', day); // starts with: fuzzy
  return tool(n, `tool-${n}`, 'alpha and beta', day); // two words for "alpha beta"
}

function expectInvalidToken(run: () => unknown, message: RegExp): void {
  try {
    run();
    expect.unreachable('expected INVALID_INPUT');
  } catch (e) {
    expect(e).toBeInstanceOf(CoreError);
    expect((e as CoreError).code).toBe('INVALID_INPUT');
    expect((e as CoreError).message).toMatch(message);
    expect((e as CoreError).details?.issues).toEqual([{ field: 'pageToken', message: (e as CoreError).message }]);
  }
}

function walk(index: ToolSearchIndex, q: string, pageSize: number): SearchResultItem[] {
  const all: SearchResultItem[] = [];
  let pageToken: string | undefined;
  do {
    const page = index.search(q, { pageSize, pageToken });
    expect(page.items.length).toBeLessThanOrEqual(pageSize);
    if (page.nextPageToken) expect(page.items).toHaveLength(pageSize);
    all.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return all;
}

describe('search paging', () => {
  const random = prng(1);
  const index = new ToolSearchIndex();
  index.load(Array.from({ length: 40 }, (_, i) => ({ tool: randomAlphaTool(i + 1, random), bundle: BUNDLE })));

  it.each([1, 2, 3, 7, 39, 40, 41])('pages of %i concatenate to the single-page result', (pageSize) => {
    const whole = index.search('alpha', { pageSize: 1000 });
    expect(whole.nextPageToken).toBeUndefined();
    expect(whole.items).toHaveLength(40);
    expect(walk(index, 'alpha', pageSize)).toEqual(whole.items);
  });

  it('has no token on the last page, including an exactly full one', () => {
    expect(index.search('alpha', { pageSize: 40 }).nextPageToken).toBeUndefined();
    expect(index.search('alpha', { pageSize: 39 }).nextPageToken).toBeTypeOf('string');
  });

  it('the same page asked twice gives the same token (stable)', () => {
    const a = index.search('alpha', { pageSize: 5 });
    const b = index.search('alpha', { pageSize: 5 });
    expect(a.nextPageToken).toBe(b.nextPageToken);
    expect(index.search('alpha', { pageSize: 5, pageToken: a.nextPageToken })).toEqual(index.search('alpha', { pageSize: 5, pageToken: b.nextPageToken }));
  });

  it('accepts a token for a query that folds to the same words', () => {
    const token = index.search('ALPHA', { pageSize: 5 }).nextPageToken!;
    expect(index.search(' álpha ', { pageSize: 5, pageToken: token }).items).toEqual(index.search('alpha', { pageSize: 10 }).items.slice(5));
  });

  it('refuses a token from another query or another includeDisabled', () => {
    const token = index.search('alpha', { pageSize: 5 }).nextPageToken!;
    expectInvalidToken(() => index.search('alphabet', { pageToken: token }), /different search/);
    expectInvalidToken(() => index.search('alpha beta', { pageToken: token }), /different search/);
    expectInvalidToken(() => index.search('alpha', { pageToken: token, includeDisabled: true }), /different search/);
    expectInvalidToken(() => index.search('', { pageToken: token }), /different search/);
  });

  it.each([
    ['foreign format', 'eyJvZmZzZXQiOjIwfQ', /not a search page token/],
    ['not base64url', 'ts1.$$$', /damaged/],
    ['not JSON', `ts1.${Buffer.from('{nope').toString('base64url')}`, /damaged/],
    ['wrong shape', `ts1.${Buffer.from('[1,2]').toString('base64url')}`, /damaged/],
    ['bad tier', `ts1.${Buffer.from(JSON.stringify(['x', 1, 7, 0, 'id'])).toString('base64url')}`, /damaged/],
    ['bad time', `ts1.${Buffer.from(JSON.stringify(['x', 1, 0, 'soon', 'id'])).toString('base64url')}`, /damaged/],
  ])('refuses a %s token', (_label, token, message) => {
    expectInvalidToken(() => index.search('alpha', { pageToken: token }), message);
  });

  it('treats an empty token as the first page', () => {
    expect(index.search('alpha', { pageSize: 5, pageToken: '' })).toEqual(index.search('alpha', { pageSize: 5 }));
  });

  it('refuses a token whose cursor was edited by hand', () => {
    const token = index.search('alpha', { pageSize: 5 }).nextPageToken!;
    const payload = JSON.parse(Buffer.from(token.slice(4), 'base64url').toString('utf8')) as unknown[];
    payload[0] = 'AAAAAAAAAAAAAAAA';
    expectInvalidToken(() => index.search('alpha', { pageToken: `ts1.${Buffer.from(JSON.stringify(payload)).toString('base64url')}` }), /different search/);
  });
});

describe('search paging while tools are created and deleted', () => {
  it('the cursor tool itself may disappear; the next page continues after it', () => {
    const random = prng(2);
    const index = new ToolSearchIndex();
    index.load(Array.from({ length: 20 }, (_, i) => ({ tool: randomAlphaTool(i + 1, random), bundle: BUNDLE })));
    const full = index.search('alpha', { pageSize: 1000 }).items.map((i) => i.toolID);
    const first = index.search('alpha', { pageSize: 6 });
    index.remove(first.items[5]!.toolID);
    const second = index.search('alpha', { pageSize: 6, pageToken: first.nextPageToken });
    expect(second.items.map((i) => i.toolID)).toEqual(full.slice(6, 12));
  });

  it('a tool created with the cursor’s exact rank but a smaller toolID is not returned twice or late; a larger one follows', () => {
    const index = new ToolSearchIndex();
    for (let n = 10; n < 20; n++) index.upsert(tool(n * 10, `alpha-${n}`, 'x', 0), BUNDLE);
    const first = index.search('alpha', { pageSize: 3 }); // ids 100, 110, 120
    expect(first.items.map((i) => i.toolID)).toEqual([id(100), id(110), id(120)]);
    index.upsert(tool(115, 'alpha-before', 'x', 0), BUNDLE); // ranks before the cursor: belongs to page 1
    index.upsert(tool(125, 'alpha-after', 'x', 0), BUNDLE); // ranks right after the cursor
    const second = index.search('alpha', { pageSize: 3, pageToken: first.nextPageToken });
    expect(second.items.map((i) => i.toolID)).toEqual([id(125), id(130), id(140)]);
  });

  it.each([3, 4, 5, 6, 7, 8, 9, 10])('never repeats or skips an unchanged tool (seed %i)', (seed) => {
    const random = prng(seed);
    const index = new ToolSearchIndex();
    let next = 1;
    const live = new Map<string, ToolFile>();
    for (; next <= 60; next++) {
      const t = randomAlphaTool(next, random);
      live.set(t.toolID, t);
      index.upsert(t, BUNDLE);
    }
    const query = random() < 0.5 ? 'alpha' : 'alpha beta';
    const before = new Set(index.search(query, { pageSize: 1000 }).items.map((i) => i.toolID));
    const touched = new Set<string>();
    const seen: string[] = [];
    const pageSize = 1 + Math.floor(random() * 8);
    let pageToken: string | undefined;
    do {
      const page = index.search(query, { pageSize, pageToken });
      seen.push(...page.items.map((i) => i.toolID));
      pageToken = page.nextPageToken;
      // Between pages: create, delete and edit tools, anywhere in the order.
      for (let ops = Math.floor(random() * 4); ops > 0; ops--) {
        const roll = random();
        const ids = [...live.keys()];
        if (roll < 0.4) {
          const t = randomAlphaTool(next++, random);
          live.set(t.toolID, t);
          index.upsert(t, BUNDLE);
        } else if (roll < 0.8 && ids.length > 0) {
          const victim = ids[Math.floor(random() * ids.length)]!;
          live.delete(victim);
          touched.add(victim);
          index.remove(victim);
        } else if (ids.length > 0) {
          const edited = ids[Math.floor(random() * ids.length)]!;
          const fresh = randomAlphaTool(Number(edited.slice(-12)), random);
          live.set(edited, fresh);
          touched.add(edited);
          index.upsert(fresh, BUNDLE);
        }
      }
    } while (pageToken);

    const occurrences = new Map<string, number>();
    for (const toolID of seen) occurrences.set(toolID, (occurrences.get(toolID) ?? 0) + 1);
    for (const [toolID, count] of occurrences) {
      if (!touched.has(toolID)) expect(count, `${toolID} repeated`).toBe(1); // an edited tool may move past the cursor
    }
    const unchanged = [...before].filter((toolID) => !touched.has(toolID));
    expect(unchanged.length).toBeGreaterThan(10);
    for (const toolID of unchanged) expect(occurrences.get(toolID), `${toolID} skipped`).toBe(1);
  });
});
