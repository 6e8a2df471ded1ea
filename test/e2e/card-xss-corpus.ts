/**
 * Hostile card HTML. `{{BEACON}}` becomes a loopback URL; each case loads a different path, so a
 * request that gets through names the case that let it. Shared by the jsdom unit test and the
 * Chromium test that counts requests on a real listener.
 */
export interface XssCase {
  name: string;
  html: string;
}

export const XSS_CORPUS: XssCase[] = [
  { name: 'script element', html: '<script src="{{BEACON}}/script"></script><script>fetch("{{BEACON}}/inline")</script>' },
  { name: 'img onerror', html: '<img src="{{BEACON}}/img" onerror="fetch(\'{{BEACON}}/onerror\')">' },
  { name: 'img srcset', html: '<img srcset="{{BEACON}}/srcset 1x">' },
  { name: 'picture source', html: '<picture><source srcset="{{BEACON}}/source"><img alt=x></picture>' },
  { name: 'svg onload', html: '<svg onload="fetch(\'{{BEACON}}/svg\')"><image href="{{BEACON}}/svgimage"/></svg>' },
  { name: 'svg use', html: '<svg><use href="{{BEACON}}/use#x"></use></svg>' },
  { name: 'math mglyph style', html: '<math><mtext><table><mglyph><style><img src="{{BEACON}}/mxss">' },
  { name: 'style element @import', html: '<style>@import url("{{BEACON}}/import");</style><p>x</p>' },
  { name: 'style element bare @import', html: '<style>@import "{{BEACON}}/import2";</style>' },
  { name: 'style element font-face', html: '<style>@font-face{font-family:x;src:url({{BEACON}}/font)} p{font-family:x}</style><p>x</p>' },
  { name: 'link stylesheet', html: '<link rel="stylesheet" href="{{BEACON}}/link">' },
  { name: 'link prefetch', html: '<link rel="prefetch" href="{{BEACON}}/prefetch">' },
  { name: 'style attr url()', html: '<div style="background-image: url({{BEACON}}/bg)">x</div>' },
  { name: 'style attr shorthand url()', html: '<div style="background: #fff url(\'{{BEACON}}/bg2\') no-repeat">x</div>' },
  { name: 'style attr image-set()', html: '<div style="background-image: image-set(\'{{BEACON}}/imageset\' 1x)">x</div>' },
  { name: 'style attr -webkit-image-set()', html: '<div style="background-image: -webkit-image-set(url({{BEACON}}/wkimageset) 1x)">x</div>' },
  { name: 'style attr escaped url', html: '<div style="background: u\\72l({{BEACON}}/escaped)">x</div>' },
  { name: 'style attr escaped u', html: '<div style="background: \\75 rl({{BEACON}}/escaped2)">x</div>' },
  { name: 'style attr comment split', html: '<div style="background: ur/**/l({{BEACON}}/comment)">x</div>' },
  { name: 'style attr list-style-image', html: '<ul style="list-style-image: url({{BEACON}}/list)"><li>x</li></ul>' },
  { name: 'style attr cursor', html: '<div style="cursor: url({{BEACON}}/cursor), auto">x</div>' },
  { name: 'style attr border-image', html: '<div style="border: 1px solid; border-image: url({{BEACON}}/border) 30">x</div>' },
  { name: 'style attr mask', html: '<div style="mask-image: url({{BEACON}}/mask); -webkit-mask-image: url({{BEACON}}/mask2)">x</div>' },
  { name: 'style attr filter', html: '<div style="filter: url({{BEACON}}/filter#f)">x</div>' },
  { name: 'style attr content', html: '<div style="content: url({{BEACON}}/content)">x</div>' },
  { name: 'style attr expression', html: '<div style="width: expression(fetch(\'{{BEACON}}/expr\'))">x</div>' },
  { name: 'style attr behavior and binding', html: '<div style="behavior: url({{BEACON}}/htc); -moz-binding: url({{BEACON}}/xbl)">x</div>' },
  { name: 'style attr @import smuggled', html: '<div style="@import url({{BEACON}}/attrimport); color: red">x</div>' },
  { name: 'style attr quote break', html: '<div style="color: red;&quot; onmouseover=&quot;fetch(\'{{BEACON}}/quote\')">x</div>' },
  { name: 'background attribute', html: '<table background="{{BEACON}}/tablebg"><tr><td background="{{BEACON}}/tdbg">x</td></tr></table>' },
  { name: 'body background', html: '<body background="{{BEACON}}/bodybg"><p>x</p></body>' },
  { name: 'iframe', html: '<iframe src="{{BEACON}}/iframe"></iframe><iframe srcdoc="<img src={{BEACON}}/srcdoc>"></iframe>' },
  { name: 'object and embed', html: '<object data="{{BEACON}}/object"></object><embed src="{{BEACON}}/embed">' },
  { name: 'video poster and audio', html: '<video poster="{{BEACON}}/poster" src="{{BEACON}}/video"></video><audio src="{{BEACON}}/audio"></audio>' },
  { name: 'input image', html: '<input type="image" src="{{BEACON}}/inputimg">' },
  { name: 'form action', html: '<form action="{{BEACON}}/form"><button>go</button></form>' },
  { name: 'meta refresh', html: '<meta http-equiv="refresh" content="0;url={{BEACON}}/refresh">' },
  { name: 'base href', html: '<base href="{{BEACON}}/base/"><a href="x">x</a>' },
  { name: 'anchor javascript', html: '<a href="javascript:fetch(\'{{BEACON}}/js\')">click</a>' },
  { name: 'anchor ping', html: '<a href="{{BEACON}}/a" ping="{{BEACON}}/ping">x</a>' },
  { name: 'template content', html: '<template><img src="{{BEACON}}/template"></template>' },
  { name: 'noscript mXSS', html: '<noscript><p title="</noscript><img src={{BEACON}}/noscript>"></noscript>' },
  { name: 'details ontoggle', html: '<details open ontoggle="fetch(\'{{BEACON}}/toggle\')"><summary>x</summary></details>' },
  { name: 'marquee onstart', html: '<marquee onstart="fetch(\'{{BEACON}}/marquee\')">x</marquee>' },
  { name: 'data URL image', html: "<img src=\"data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><image href='{{BEACON}}/datasvg'/></svg>\">" },
  { name: 'dialog and popover', html: '<button popovertarget="p">x</button><div popover id="p" style="background:url({{BEACON}}/popover)">x</div>' },
  // Markup inside an attribute value: inert where it was parsed, mutation XSS once re-parsed in another context.
  { name: 'attribute holding markup', html: '<p title=\'</p><img src={{BEACON}}/attrmarkup onerror=fetch("{{BEACON}}/attronerror")>\'>x</p>' },
  { name: 'attribute closing noscript', html: '<abbr title="</noscript><img src={{BEACON}}/attrnoscript>">x</abbr>' },
  { name: 'attribute closing style', html: '<b title="</style><img src={{BEACON}}/attrstyle>">x</b>' },
  { name: 'attribute closing a comment', html: '<span title="--><img src={{BEACON}}/attrcomment>">x</span>' },
  { name: 'attribute closing xmp', html: '<em class="a" title="</xmp><img src={{BEACON}}/attrxmp>" dir="ltr">x</em>' },
];

/**
 * The first attribute value in serialised html that holds a raw `<` or `>` (browsers now escape
 * both there), or undefined. Reads the canonical form a serialiser writes: text with `<` and `>`
 * escaped, values in double quotes with `"` escaped, so every raw `<` opens a tag or a comment.
 */
export function attributeWithMarkup(html: string): string | undefined {
  let i = 0;
  while ((i = html.indexOf('<', i)) >= 0) {
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    i++;
    while (i < html.length && html[i] !== '>') {
      if (html[i] === '"') {
        const end = html.indexOf('"', i + 1);
        const value = html.slice(i + 1, end < 0 ? html.length : end);
        if (/[<>]/.test(value)) return value;
        i = end < 0 ? html.length : end + 1;
      } else i++;
    }
  }
  return undefined;
}

/**
 * The html with the values of attributes that only hold text (title, alt, aria-label…) emptied,
 * for string checks of its markup: an escaped `&lt;img src=… onerror=…&gt;` in a title is text,
 * not an element or a handler. Only sound once attributeWithMarkup found no raw `<` or `>`.
 */
export function textAttributesBlanked(html: string): string {
  return html.replace(/(\s(?:title|alt|aria-label|aria-description|summary|abbr|label)=)"[^"]*"/gi, '$1""');
}
