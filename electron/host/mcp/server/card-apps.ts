/**
 * Cards as MCP Apps (the `io.modelcontextprotocol/ui` extension, docs/contracts.md "Agents: MCP
 * server and CLI"): a visible tool with a card names `ui://toolwright/<toolID>/card` in its
 * tools/list `_meta`, and that resource is a small html app a host renders in its sandboxed frame.
 * The app holds no data of its own: the host hands it the tools/call result over the Apps bridge
 * (`ui/initialize`, then `ui/notifications/tool-result`), and it shows the card the core already
 * sanitised, which the result carries in `_meta` (CARD_RESULT_META_KEY) beside the embedded
 * text/html resource that hosts without Apps show.
 *
 * The bridge is a hand-written script, not the ext-apps App class (542 KB with its dependencies):
 * the frame's CSP admits that one script by its hash and nothing else — no other script, no
 * inline handler, no javascript: URL, no load from anywhere — so even html that missed the
 * sanitiser could not run or fetch a thing.
 */
import { createHash } from 'node:crypto';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { ResourceNotFoundError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/server';
import { CARD_PURIFY_CONFIG, safeColor } from '../../../../shared/card/sanitize.js';
import { escapeHtml } from '../../../../shared/html.js';
import { CARD_RESULT_META_KEY, cardAppUri, type AgentCardApp } from '../../../../shared/agents/surface.js';
import type { AudienceWatch } from './audience-watch.js';

export { CARD_RESULT_META_KEY };

/** The server capability: Toolwright serves ui:// apps. */
export const APPS_EXTENSION = { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } };

const URI = /^ui:\/\/toolwright\/([0-9a-f-]{36})\/card$/;

/**
 * The sanitiser's element and attribute rules, applied again in the frame (handlers and
 * javascript: URLs always go). The Sanitizer matches a bare name in the HTML namespace only, so
 * svg and math are named in their own namespaces too.
 */
const FRAME_RULES = JSON.stringify({
  removeElements: [
    ...CARD_PURIFY_CONFIG.FORBID_TAGS,
    { name: 'svg', namespace: 'http://www.w3.org/2000/svg' },
    { name: 'math', namespace: 'http://www.w3.org/1998/Math/MathML' },
  ],
  removeAttributes: CARD_PURIFY_CONFIG.FORBID_ATTR,
});

/**
 * Runs in the app's frame. Speaks the view's side of the Apps bridge as JSON-RPC over
 * postMessage to its parent; shows the card of each tool result; reports its size. The card's
 * html was sanitised by the core; the frame applies the same element and attribute rules again
 * (the browser's own Sanitizer where it has one, else on an inert template) before it shows it.
 */
export const CARD_APP_BRIDGE = `(()=>{
const root=document.getElementById('card'),title=document.getElementById('title'),RULES=${FRAME_RULES};
const put=(html)=>{if(typeof root.setHTML==='function'){root.setHTML(html,{sanitizer:RULES});return}
const t=document.createElement('template');t.innerHTML=html;t.content.querySelectorAll(RULES.removeElements.map((e)=>e.name||e).join(',')).forEach((e)=>e.remove());
t.content.querySelectorAll('*').forEach((e)=>{for(const a of [...e.attributes])if(/^on/i.test(a.name)||RULES.removeAttributes.includes(a.name.toLowerCase()))e.removeAttribute(a.name)});root.replaceChildren(t.content)};
let next=1;const send=(m)=>parent.postMessage(m,'*');
const notify=(method,params)=>send({jsonrpc:'2.0',method,params});
const textOf=(r)=>(Array.isArray(r.content)?r.content:[]).filter((c)=>c&&c.type==='text').map((c)=>String(c.text)).join('\\n');
const show=(r)=>{if(!r||typeof r!=='object')return;
const card=r._meta&&typeof r._meta==='object'?r._meta['${CARD_RESULT_META_KEY}']:undefined;
document.body.classList.toggle('error',r.isError===true);
title.textContent=card&&typeof card.title==='string'?card.title:'';
if(card&&typeof card.html==='string'&&card.html){put(card.html);return}
const pre=document.createElement('pre');pre.textContent=card&&typeof card.text==='string'?card.text:textOf(r);root.replaceChildren(pre)};
const init=next++;
addEventListener('message',(e)=>{if(e.source!==parent)return;const m=e.data;if(!m||m.jsonrpc!=='2.0')return;
if(m.id===init&&!m.method){const t=m.result&&m.result.hostContext&&m.result.hostContext.theme;if(t==='dark'||t==='light')document.documentElement.style.colorScheme=t;notify('ui/notifications/initialized',{});return}
if(m.method==='ui/notifications/tool-result')show(m.params);
else if(m.method==='ui/notifications/host-context-changed'){const t=m.params&&m.params.theme;if(t==='dark'||t==='light')document.documentElement.style.colorScheme=t}
else if(m.method&&m.id!==undefined){if(m.method==='ping'||m.method==='ui/resource-teardown')send({jsonrpc:'2.0',id:m.id,result:{}});else send({jsonrpc:'2.0',id:m.id,error:{code:-32601,message:'Method not found: '+m.method}})}});
let last='';new ResizeObserver(()=>{const b=document.documentElement.getBoundingClientRect(),s=Math.ceil(b.width)+'x'+Math.ceil(b.height);if(s!==last){last=s;notify('ui/notifications/size-changed',{width:Math.ceil(b.width),height:Math.ceil(b.height)})}}).observe(document.documentElement);
send({jsonrpc:'2.0',id:init,method:'ui/initialize',params:{appInfo:{name:'toolwright-card',version:'1'},appCapabilities:{},protocolVersion:'2026-01-26'}});
})()`;

const BRIDGE_HASH = `'sha256-${createHash('sha256').update(CARD_APP_BRIDGE).digest('base64')}'`;

/** The frame's own policy; the host applies `_meta.ui.csp` (no outside domains) on top. */
export const CARD_APP_CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src ${BRIDGE_HASH}; base-uri 'none'; form-action 'none'`;

const NO_OUTSIDE_DOMAINS = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };

/** The app of one tool: its colours and name around an empty card the bridge fills from each result. */
export function cardAppHtml(app: Pick<AgentCardApp, 'title' | 'accentColor' | 'backgroundColor'>): string {
  const accent = safeColor(app.accentColor, '#3b6fd8');
  const background = safeColor(app.backgroundColor, 'transparent');
  const name = escapeHtml(app.title);
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${CARD_APP_CSP}">` +
    `<title>${name}</title>` +
    `<style>:root{color-scheme:light dark}html,body{margin:0}` +
    `body{background:${background};border-left:4px solid ${accent};padding:10px 14px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}` +
    `header{font-weight:600;color:${accent};margin-bottom:6px}header:empty{display:none}body.error{border-left-color:#c62828}` +
    'pre{white-space:pre-wrap;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;margin:0}' +
    'table{border-collapse:collapse}td,th{padding:2px 8px;text-align:left}</style>' +
    `</head><body><header id="title"></header><main id="card" aria-live="polite"></main><script>${CARD_APP_BRIDGE}</script></body></html>`
  );
}

/** The ui:// resources of an audience: listed for its visible tools with a card, read only by those. */
export interface CardAppResources {
  list(): Promise<Resource[]>;
  /** undefined: not a ui:// address (another kind of resource); throws when it is one this audience may not read. */
  read(uri: string): Promise<ReadResourceResult | undefined>;
}

export function cardAppResources(audience: AudienceWatch): CardAppResources {
  const describe = (t: AgentCardApp): Resource => ({
    uri: cardAppUri(t.toolID),
    name: `${t.name}-card`,
    title: `${t.title}: card`,
    description: `The card of ${t.name} as an MCP App: shows the card of a tools/call result of ${t.name}.`,
    mimeType: RESOURCE_MIME_TYPE,
    _meta: { ui: { csp: NO_OUTSIDE_DOMAINS } },
  });
  return {
    list: async () => (await audience.resources()).cards.map(describe),
    async read(uri) {
      if (!uri.startsWith('ui://')) return undefined;
      const toolID = URI.exec(uri)?.[1];
      const tool = toolID ? (await audience.resources()).cards.find((t) => t.toolID === toolID) : undefined;
      if (!tool)
        throw new ResourceNotFoundError(uri, `Resource not found: ${uri.slice(0, 200)}; resources/list names the ui:// card apps of the tools you may use`);
      return {
        contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: cardAppHtml(tool), _meta: { ui: { csp: NO_OUTSIDE_DOMAINS, prefersBorder: true } } }],
      };
    },
  };
}
