/**
 * Tool icons for MCP's Tool.icons (`{src, mimeType?, sizes?}`): the tool's own icon, else its
 * bundle's. tool.json keeps an icon a source format brought (a Chalie manifest's `icon`, in
 * `extensions.<origin>.icon`) or one written by hand (`x-icon`); bundle.json has `x-icon`. An
 * icon is an image a client can show without asking anyone: a `data:image/…;base64,` URI or an
 * https URL, given as a string or as an MCP Icon object (or a list of them). Anything else — a
 * Font Awesome class name such as Chalie's `fa-cloud-sun`, a relative path, an http or
 * javascript: URL — is no icon, and the tool is listed without one.
 */
import type { AgentTool } from '../agents/agent-tools.js';

/** MCP's Icon. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
}

/** Bigger icons would weigh on every tools/list of every agent. */
export const MAX_ICON_SRC_CHARS = 32 * 1024;

const DATA_URI = /^data:(image\/(?:png|jpeg|gif|webp|svg\+xml));base64,[A-Za-z0-9+/]+={0,2}$/;
const SIZES = /^(?:\d{1,4}x\d{1,4}|any)$/;

function iconOf(value: unknown): Icon | undefined {
  const raw = typeof value === 'string' ? { src: value } : value;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { src, mimeType, sizes } = raw as Record<string, unknown>;
  if (typeof src !== 'string' || src.length > MAX_ICON_SRC_CHARS) return undefined;
  const data = DATA_URI.exec(src);
  if (!data && !isHttpsUrl(src)) return undefined;
  const icon: Icon = { src };
  const type = data?.[1] ?? (typeof mimeType === 'string' && /^image\/[a-z0-9.+-]{1,60}$/.test(mimeType) ? mimeType : undefined);
  if (type) icon.mimeType = type;
  if (Array.isArray(sizes) && sizes.length && sizes.every((s) => typeof s === 'string' && SIZES.test(s))) icon.sizes = sizes as string[];
  return icon;
}

function isHttpsUrl(src: string): boolean {
  try {
    return new URL(src).protocol === 'https:';
  } catch {
    return false;
  }
}

function iconsOf(value: unknown): Icon[] {
  const list = Array.isArray(value) ? value.slice(0, 8) : [value];
  return list.map(iconOf).filter((i): i is Icon => i !== undefined);
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The icons tools/list shows for a tool; undefined when neither it nor its bundle has a usable one. */
export function toolIcons(t: AgentTool): Icon[] | undefined {
  const file = t.file as unknown as Record<string, unknown>;
  const candidates = [file['x-icon'], ...Object.values(record(file['extensions']) ?? {}).map((origin) => record(origin)?.['icon'])];
  candidates.push((t.bundle as unknown as Record<string, unknown>)['x-icon']);
  for (const c of candidates) {
    const icons = iconsOf(c);
    if (icons.length) return icons;
  }
  return undefined;
}
