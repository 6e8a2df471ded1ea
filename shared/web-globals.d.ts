/**
 * The one web-platform global shared/ may use: WHATWG URL, present in Node, Electron's
 * renderer and every browser. shared/tsconfig.json has neither the DOM nor Node's types (so a
 * stray `document` or `fs` fails the type-check); this declares just what shared/ needs of URL.
 */
declare class URL {
  constructor(url: string, base?: string);
  readonly hostname: string;
  readonly host: string;
  readonly protocol: string;
}
