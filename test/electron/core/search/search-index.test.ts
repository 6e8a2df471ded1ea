import { describe, expect, it } from 'vitest';
import type { BundleFile, ToolFile } from '../../../../shared/schemas.js';
import { ToolSearchIndex, type SearchResultItem } from '../../../../electron/core/search/search-index.js';
import { CoreError } from '../../../../electron/core/errors.js';
import { fixtureID as id, searchBundle, searchTool } from '../../../helpers/search-fixtures.js';

// ---------- fixture builders ----------

function bundle(n: number, slug: string, displayName: string, extra: Partial<BundleFile> = {}): BundleFile {
  return searchBundle({ bundleID: id(1000 + n), slug, displayName, description: 'bundle descriptions are not indexed', ...extra });
}

function tool(n: number, b: BundleFile, slug: string, displayName: string, description: string, modifiedAt: string, extra: Partial<ToolFile> = {}): ToolFile {
  return searchTool({ toolID: id(n), bundleID: b.bundleID, slug, displayName, description, modifiedAt: `${modifiedAt}T12:00:00.000Z`, ...extra });
}

const MAIN = bundle(1, 'utilities', 'Utilities');
const GEO = bundle(2, 'geo-tools', 'Géo Tools');
const OLD = bundle(3, 'legacy', 'Legacy Stuff', { isEnabled: false });
const TRASH = bundle(4, 'trash-bin', 'Trash Bin', { softDeletedAt: '2026-04-01T00:00:00.000Z' });

const FIXTURE: ToolFile[] = [
  tool(1, GEO, 'weather-now', 'Weather Now', 'Current conditions for a city.', '2026-01-10', { tags: ['forecast'] }),
  tool(2, MAIN, 'weatherly-stats', 'Weatherly stats', 'Aggregated statistics per station.', '2026-01-05'),
  tool(3, GEO, 'city-conditions', 'City conditions', 'Shows the weather for a city.', '2026-01-20'),
  tool(4, MAIN, 'billing-run', 'Billing run', 'Sends every invoice at month end.', '2026-02-01', { tags: ['finance'] }),
  tool(5, MAIN, 'invoker', 'Invoker', 'Calls a function by name.', '2025-12-01'),
  tool(6, GEO, 'météo-fr', 'Météo France', 'Prévisions météo pour la France.', '2025-11-01'),
  tool(7, GEO, 'strassen-karte', 'Straßenkarte', 'Zeigt Straßen und Wege.', '2025-10-01'),
  tool(8, GEO, 'wetter-なう', 'Wetter なう', '天気予報を表示します', '2025-09-01'),
  tool(9, MAIN, 'weather-archive', 'Weather archive', 'Past observations.', '2026-03-01', { isEnabled: false }),
  tool(10, OLD, 'weather-legacy', 'Weather legacy', 'Old feed.', '2026-03-02'),
  tool(11, TRASH, 'weather-trash', 'Weather trash', 'Old feed.', '2026-03-03'),
  tool(12, MAIN, 'stock-price', 'Stock price', 'Latest stock price and market cap.', '2025-08-01', { tags: ['finance', 'market'] }),
  tool(13, MAIN, 'market-report', 'Market report', 'Weekly report of the stock market.', '2025-08-15'),
  tool(14, MAIN, 'currency-convert', 'Convert currency', 'Converts an amount between currencies.', '2025-07-01', { tags: ['finance'] }),
  // Same text and time: only the toolID orders them, and echo-b has the smaller one.
  tool(16, MAIN, 'echo-a', 'Echo', 'Echoes its input.', '2025-06-01'),
  tool(15, MAIN, 'echo-b', 'Echo', 'Echoes its input.', '2025-06-01'),
  tool(17, MAIN, 'calendar-sync', 'Calendar sync', 'Keeps two calendars in step.', '2025-05-01'),
  tool(18, MAIN, 'omega-calc', 'Ωmega calc', 'Υπολογισμός αριθμών.', '2025-04-01'),
  tool(19, GEO, 'pogoda', 'Погода', 'Прогноз погоды.', '2025-03-01'),
  tool(20, GEO, 'get-forecast', 'Get forecast', 'Forecast for the next days.', '2025-02-01', { tags: ['weather'] }),
  tool(21, MAIN, 'capital-prices', 'Capital prices', 'Price of capitals.', '2026-02-10'),
];
const BUNDLES = new Map([MAIN, GEO, OLD, TRASH].map((b) => [b.bundleID, b]));

function fixtureIndex(): ToolSearchIndex {
  const index = new ToolSearchIndex();
  index.load(FIXTURE.map((t) => ({ tool: t, bundle: BUNDLES.get(t.bundleID)! })));
  return index;
}

const slugOf = new Map(FIXTURE.map((t) => [t.toolID, t.slug]));
const slugs = (items: SearchResultItem[]) => items.map((i) => slugOf.get(i.toolID) ?? i.toolID);

/** Every result of a search, across pages. */
function searchAll(index: ToolSearchIndex, q: string, includeDisabled = false): SearchResultItem[] {
  const all: SearchResultItem[] = [];
  let pageToken: string | undefined;
  do {
    const page = index.search(q, { includeDisabled, pageSize: 3, pageToken });
    all.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return all;
}

// ---------- the ranking table ----------

type Case = [query: string, expected: string[], tiers?: string[], includeDisabled?: boolean];

const WEATHER = ['weather-now', 'weatherly-stats', 'city-conditions', 'get-forecast', 'wetter-なう'];
const WEATHER_TIERS = ['prefix', 'prefix', 'word', 'word', 'fuzzy'];
const GEO_TOOLS = ['city-conditions', 'weather-now', 'météo-fr', 'strassen-karte', 'wetter-なう', 'pogoda', 'get-forecast'];

const CASES: Case[] = [
  // prefix tier (slug/displayName begins with the query) before fuzzy "starts with" in other fields
  ['weat', ['weather-now', 'weatherly-stats', 'city-conditions', 'get-forecast'], ['prefix', 'prefix', 'fuzzy', 'fuzzy']],
  ['weather', WEATHER, WEATHER_TIERS],
  ['WEATHER', WEATHER, WEATHER_TIERS],
  ['ｗｅａｔｈｅｒ', WEATHER, WEATHER_TIERS], // fullwidth letters fold (NFKD)
  ['  weather!  ', WEATHER, WEATHER_TIERS],
  // disabled tool, disabled bundle and soft-deleted bundle appear only with includeDisabled; newest first inside the tier
  ['weather', ['weather-trash', 'weather-legacy', 'weather-archive', ...WEATHER], ['prefix', 'prefix', 'prefix', ...WEATHER_TIERS], true],
  // typos: within edit distance, all fuzzy, newest first
  ['wether', ['city-conditions', 'weather-now', 'wetter-なう', 'get-forecast'], ['fuzzy', 'fuzzy', 'fuzzy', 'fuzzy']],
  ['calender', ['calendar-sync'], ['fuzzy']],
  ['finance', ['billing-run', 'stock-price', 'currency-convert', 'météo-fr'], ['word', 'word', 'word', 'fuzzy']],
  // "a word that merely starts with it" is fuzzy; the slug prefix wins
  ['invo', ['invoker', 'billing-run'], ['prefix', 'fuzzy']],
  ['invoice', ['billing-run'], ['word']],
  // whole word in the description / tags
  ['conditions', ['city-conditions', 'weather-now'], ['word', 'word']],
  ['forecast', ['weather-now', 'get-forecast'], ['word', 'word']],
  ['market', ['market-report', 'stock-price'], ['prefix', 'word']],
  ['karte', ['strassen-karte'], ['word']],
  ['Convert', ['currency-convert'], ['prefix']], // displayName "Convert currency"
  // ties: same words, same tier, same modifiedAt → toolID
  ['echo', ['echo-b', 'echo-a'], ['prefix', 'prefix']],
  // diacritics and Unicode normalisation
  ['météo', ['météo-fr'], ['prefix']],
  ['me\u0301te\u0301o', ['météo-fr'], ['prefix']], // NFD-typed
  ['meteo', ['météo-fr'], ['prefix']],
  ['METEO', ['météo-fr'], ['prefix']],
  ['strasse', ['strassen-karte'], ['prefix']],
  ['Straßen', ['strassen-karte'], ['prefix']],
  ['υπολογισμος', ['omega-calc'], ['word']],
  ['ΩMEGA', ['omega-calc'], ['prefix']],
  ['погода', ['pogoda'], ['prefix']],
  ['なう', ['wetter-なう'], ['word']],
  ['天気', ['wetter-なう'], ['fuzzy']],
  ['wetter-な', ['wetter-なう', 'city-conditions', 'weather-now', 'get-forecast'], ['prefix', 'fuzzy', 'fuzzy', 'fuzzy']],
  // multi-word: the tiers first, then more query words matched
  ['stock price', ['stock-price', 'capital-prices', 'market-report'], ['prefix', 'word', 'word']],
  ['price stock', ['stock-price', 'capital-prices', 'market-report'], ['word', 'word', 'word']],
  // both words whole beats one whole + one only starting with "cap", though capital-prices is newer
  ['price cap', ['stock-price', 'capital-prices'], ['word', 'fuzzy']],
  // the spec's tiers come before the number of words matched: one whole word ("price" in
  // stock-price) beats two words of which one only starts with "capit" (capital-prices)
  ['price capit', ['stock-price', 'capital-prices'], ['word', 'fuzzy']],
  ['weather city', ['city-conditions', 'weather-now', 'get-forecast', 'weatherly-stats', 'wetter-なう'], ['word', 'word', 'word', 'fuzzy', 'fuzzy']],
  ['WEATHER NOW', ['weather-now', 'city-conditions', 'get-forecast', 'weatherly-stats', 'wetter-なう'], ['prefix', 'word', 'word', 'fuzzy', 'fuzzy']],
  ['get fore', ['get-forecast', 'city-conditions', 'weather-now'], ['prefix', 'fuzzy', 'fuzzy']],
  // a single letter: whole word "a" before words starting with a
  // (echo-a's slug has the word "a"; echo-b's has not)
  [
    'a',
    ['city-conditions', 'weather-now', 'invoker', 'echo-a', 'billing-run', 'weatherly-stats', 'stock-price', 'currency-convert'],
    ['word', 'word', 'word', 'word', 'fuzzy', 'fuzzy', 'fuzzy', 'fuzzy'],
  ],
  // bundle slug and displayName are indexed
  ['geo', GEO_TOOLS, GEO_TOOLS.map(() => 'word')],
  ['Géo', GEO_TOOLS, GEO_TOOLS.map(() => 'word')],
  // hidden unless includeDisabled
  ['legacy', []],
  ['legacy', ['weather-legacy'], ['word'], true],
  ['archive', []],
  ['archive', ['weather-archive'], ['word'], true],
  ['trash', []],
  ['trash', ['weather-trash'], ['word'], true],
  // nothing to match
  ['zzzz', []],
  ['', []],
  ['   ', []],
  ['-- !! --', []],
];

describe('ToolSearchIndex ranking table', () => {
  const index = fixtureIndex();
  it('has at least 30 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(30));

  it.each(CASES)('%j → %j', (query, expected, tiers, includeDisabled) => {
    const items = searchAll(index, query, includeDisabled === true);
    expect(slugs(items)).toEqual(expected);
    if (tiers) expect(items.map((i) => i.tier)).toEqual(tiers);
    // The first page agrees with the paged walk, and scores never increase along the order.
    expect(index.search(query, { includeDisabled, pageSize: 1000 }).items).toEqual(items);
    for (let i = 1; i < items.length; i++) expect(items[i]!.score).toBeLessThanOrEqual(items[i - 1]!.score);
  });
});

describe('ToolSearchIndex matches and scores', () => {
  const index = fixtureIndex();

  it('says which fields matched which query words', () => {
    const [weatherNow, cityConditions] = index
      .search('weather city')
      .items.filter((i) => ['weather-now', 'city-conditions'].includes(slugOf.get(i.toolID)!))
      .sort((a, b) => a.toolID.localeCompare(b.toolID));
    expect(weatherNow!.matches).toEqual({ slug: ['weather'], displayName: ['weather'], description: ['city'] });
    expect(cityConditions!.matches).toEqual({ slug: ['city'], displayName: ['city'], description: ['weather', 'city'] });
  });

  it('reports tag and bundle fields, with folded query words', () => {
    const forecast = index.search('Weather geo').items.find((i) => slugOf.get(i.toolID) === 'get-forecast')!;
    expect(forecast.matches).toEqual({ tags: ['weather'], bundleSlug: ['geo'], bundleDisplayName: ['geo'] });
    const meteo = index.search('MÉTÉO').items[0]!;
    expect(meteo.matches).toEqual({ slug: ['meteo'], displayName: ['meteo'], description: ['meteo'] });
  });

  it('scores the tier first, then the words matched', () => {
    const items = index.search('weather now').items;
    const byslug = new Map(items.map((i) => [slugOf.get(i.toolID), i.score]));
    expect(byslug.get('weather-now')).toBe(302); // prefix, 2 words
    expect(byslug.get('city-conditions')).toBe(201); // whole word, 1 word
    expect(byslug.get('weatherly-stats')).toBe(101); // fuzzy, 1 word
  });
});

describe('ToolSearchIndex incremental updates', () => {
  it('upsert replaces the indexed text of a tool', () => {
    const index = fixtureIndex();
    const before = FIXTURE.find((t) => t.slug === 'invoker')!;
    index.upsert({ ...before, description: 'Dispatches a webhook.', modifiedAt: '2026-05-01T00:00:00.000Z' }, MAIN);
    expect(slugs(index.search('webhook').items)).toEqual(['invoker']);
    expect(index.search('function').items).toEqual([]);
    expect(index.size).toBe(FIXTURE.length);
  });

  it('upsert with new modifiedAt moves a tool inside its tier', () => {
    const index = fixtureIndex();
    const getForecast = FIXTURE.find((t) => t.slug === 'get-forecast')!;
    index.upsert({ ...getForecast, modifiedAt: '2026-06-01T00:00:00.000Z' }, GEO);
    expect(slugs(index.search('forecast').items)).toEqual(['get-forecast', 'weather-now']);
  });

  it('upsert of a disabled tool hides it, re-enabling shows it again', () => {
    const index = fixtureIndex();
    const stock = FIXTURE.find((t) => t.slug === 'stock-price')!;
    index.upsert({ ...stock, isEnabled: false }, MAIN);
    expect(slugs(index.search('stock').items)).toEqual(['market-report']);
    expect(slugs(index.search('stock', { includeDisabled: true }).items)).toEqual(['stock-price', 'market-report']);
    index.upsert(stock, MAIN);
    expect(slugs(index.search('stock').items)).toEqual(['stock-price', 'market-report']);
  });

  it('remove drops a tool; removing an unknown tool is a no-op', () => {
    const index = fixtureIndex();
    index.remove(FIXTURE.find((t) => t.slug === 'weather-now')!.toolID);
    index.remove(id(999));
    expect(slugs(index.search('weather').items)).toEqual(['weatherly-stats', 'city-conditions', 'get-forecast', 'wetter-なう']);
    expect(index.size).toBe(FIXTURE.length - 1);
  });

  it('upsertBundle renames follow into the bundle fields of its tools', () => {
    const index = fixtureIndex();
    index.upsertBundle({ ...GEO, slug: 'maps', displayName: 'Kartendienste' });
    expect(index.search('geo').items).toEqual([]);
    expect(slugs(index.search('kartendienst').items)).toEqual(GEO_TOOLS);
    expect(index.search('maps').items.every((i) => i.tier === 'word')).toBe(true);
  });

  it('upsertBundle disable and soft delete hide its tools; restore shows them', () => {
    const index = fixtureIndex();
    index.upsertBundle({ ...GEO, isEnabled: false });
    expect(slugs(index.search('weather').items)).toEqual(['weatherly-stats']);
    index.upsertBundle({ ...GEO, isEnabled: true, softDeletedAt: '2026-04-02T00:00:00.000Z' });
    expect(slugs(index.search('weather').items)).toEqual(['weatherly-stats']);
    expect(slugs(index.search('weather', { includeDisabled: true }).items)).toContain('weather-now');
    index.upsertBundle({ ...GEO, softDeletedAt: null });
    expect(slugs(index.search('weather').items)).toEqual(WEATHER);
  });

  it('upsertBundle of a bundle without tools is ignored', () => {
    const index = fixtureIndex();
    index.upsertBundle(bundle(9, 'empty-bundle', 'Nothing here'));
    expect(index.search('empty').items).toEqual([]);
  });

  it('a tool moved to another bundle takes that bundle’s fields; an emptied bundle is forgotten', () => {
    const index = new ToolSearchIndex();
    const lonely = bundle(5, 'lonely', 'Lonely');
    const moved = tool(50, lonely, 'mover', 'Mover', 'Moves.', '2025-01-01');
    index.upsert(moved, lonely);
    expect(index.search('lonely').items).toHaveLength(1);
    index.upsert({ ...moved, bundleID: MAIN.bundleID }, MAIN);
    expect(index.search('lonely').items).toEqual([]);
    expect(index.search('utilities').items.map((i) => i.toolID)).toEqual([moved.toolID]);
  });

  it('upsert refuses a bundle that is not the tool’s own', () => {
    const index = new ToolSearchIndex();
    expect(() => index.upsert(FIXTURE[0]!, MAIN)).toThrow(CoreError);
  });

  it('load adds to what is there, replaces tools given again, and clear empties', () => {
    const index = fixtureIndex();
    const first = FIXTURE[0]!;
    index.load([
      { tool: { ...first, description: 'Renamed text alpha.' }, bundle: GEO },
      { tool: { ...first, description: 'Renamed text omega.' }, bundle: GEO },
      { tool: tool(60, MAIN, 'new-tool', 'New tool', 'Fresh.', '2025-01-01'), bundle: MAIN },
    ]);
    expect(index.size).toBe(FIXTURE.length + 1);
    expect(index.search('alpha').items).toEqual([]);
    expect(index.search('omega').items.map((i) => i.toolID)).toContain(first.toolID);
    expect(index.search('city').items.map((i) => i.toolID)).not.toContain(first.toolID);
    expect(index.search('fresh').items).toHaveLength(1);
    index.clear();
    expect(index.size).toBe(0);
    expect(index.search('weather').items).toEqual([]);
  });
});

describe('ToolSearchIndex input checks', () => {
  const index = fixtureIndex();

  it.each([0, -1, 1001, 2.5, Number.NaN])('refuses pageSize %s with INVALID_INPUT', (pageSize) => {
    try {
      index.search('weather', { pageSize });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CoreError);
      expect((e as CoreError).code).toBe('INVALID_INPUT');
      expect((e as CoreError).details?.issues?.[0]?.field).toBe('pageSize');
    }
  });

  it('defaults to 20 per page and allows 1000', () => {
    const many = new ToolSearchIndex();
    for (let i = 0; i < 25; i++) many.upsert(tool(100 + i, MAIN, `same-${i}`, 'Same', 'same', '2025-01-01'), MAIN);
    expect(many.search('same').items).toHaveLength(20);
    expect(many.search('same', { pageSize: 1000 }).items).toHaveLength(25);
  });

  it('refuses more than 32 different words but accepts 32', () => {
    const words = Array.from({ length: 33 }, (_, i) => `w${i}`);
    expect(() => index.search(words.join(' '))).toThrow(/at most 32/);
    expect(index.search(words.slice(0, 32).join(' ')).items).toEqual([]);
  });
});
