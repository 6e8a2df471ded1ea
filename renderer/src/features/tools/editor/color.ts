/**
 * CSS colours as the card settings need them: the swatch shows the colour as written (alpha
 * included, over a checkerboard), and the native picker, which knows only #rrggbb, gets the
 * colour without its alpha and gives one back with the alpha kept.
 */

export interface ColorParts {
  /** #rrggbb, lower-case. */
  hex: string;
  /** 0..1 */
  alpha: number;
}

const hex2 = (n: number) =>
  Math.round(Math.max(0, Math.min(255, n)))
    .toString(16)
    .padStart(2, '0');

function channel(text: string): number | null {
  const t = text.trim();
  if (/^-?\d+(\.\d+)?%$/.test(t)) return (parseFloat(t) / 100) * 255;
  if (/^-?\d+(\.\d+)?$/.test(t)) return parseFloat(t);
  return null;
}

function alphaOf(text: string | undefined): number | null {
  if (text === undefined) return 1;
  const t = text.trim();
  if (/^\d*\.?\d+%$/.test(t)) return Math.min(1, parseFloat(t) / 100);
  if (/^\d*\.?\d+$/.test(t)) return Math.min(1, parseFloat(t));
  return null;
}

/** Hex (#rgb, #rgba, #rrggbb, #rrggbbaa) and rgb()/rgba() in comma or space syntax; null for anything else. */
export function parseColor(value: string): ColorParts | null {
  const v = value.trim().toLowerCase();
  let m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v);
  if (m) {
    let h = m[1]!;
    if (h.length <= 4) h = [...h].map((c) => c + c).join('');
    return { hex: `#${h.slice(0, 6)}`, alpha: h.length === 8 ? Math.round((parseInt(h.slice(6), 16) / 255) * 1000) / 1000 : 1 };
  }
  m = /^rgba?\(\s*([^)]*)\)$/.exec(v);
  if (!m) return null;
  const body = m[1]!;
  const [colors, slashAlpha] = body.includes('/') ? body.split('/') : [body, undefined];
  const parts = colors!.includes(',') ? colors!.split(',') : colors!.trim().split(/\s+/);
  if (parts.length < 3 || parts.length > 4 || (parts.length === 4 && slashAlpha !== undefined)) return null;
  const rgb = parts.slice(0, 3).map(channel);
  const alpha = alphaOf(parts.length === 4 ? parts[3] : slashAlpha);
  if (rgb.some((c) => c === null) || alpha === null) return null;
  return { hex: `#${rgb.map((c) => hex2(c!)).join('')}`, alpha };
}

/** The picker's #rrggbb with the alpha of what was written kept: hex when opaque, rgba() otherwise. */
export function withPickedColor(previous: string, picked: string): string {
  const alpha = parseColor(previous)?.alpha ?? 1;
  if (alpha >= 1) return picked;
  const n = parseInt(picked.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}
