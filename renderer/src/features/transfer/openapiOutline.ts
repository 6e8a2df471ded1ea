/**
 * A quick outline of an OpenAPI document for the import preview: its title and operations.
 * The core decides what each operation becomes (ImportReport counts them and says which were
 * left out); this only lets the person see what the document holds before anything is written.
 */
export interface OpenApiOutline {
  title?: string;
  version?: string;
  operations: { method: string; path: string; summary?: string; operationId?: string }[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function outlineOf(doc: unknown): OpenApiOutline {
  const root = obj(doc) ?? {};
  const info = obj(root['info']) ?? {};
  const operations: OpenApiOutline['operations'] = [];
  for (const [path, item] of Object.entries(obj(root['paths']) ?? {})) {
    for (const method of METHODS) {
      const op = obj(obj(item)?.[method]);
      if (!op) continue;
      const summary = str(op['summary']) ?? str(op['description'])?.split('\n')[0];
      const operationId = str(op['operationId']);
      operations.push({ method: method.toUpperCase(), path, ...(summary ? { summary } : {}), ...(operationId ? { operationId } : {}) });
    }
  }
  const title = str(info['title']);
  const version = info['version'] === undefined ? undefined : String(info['version']);
  return { ...(title ? { title } : {}), ...(version ? { version } : {}), operations };
}

/** Parses JSON or YAML; null when the text is neither (the core's dry run then says why). */
export async function outlineOfText(text: string): Promise<OpenApiOutline | null> {
  const body = text.replace(/^\uFEFF/, '');
  try {
    if (body.trimStart().startsWith('{')) return outlineOf(JSON.parse(body));
    // yaml (already the core's parser) loads only when a YAML document is dropped.
    const { parse } = await import('yaml');
    return outlineOf(parse(body, { maxAliasCount: 100 }));
  } catch {
    return null;
  }
}
