/**
 * HTML to Markdown or plain text, for web-fetch: jsdom parses (no script runs, nothing loads),
 * Mozilla's Readability keeps the article when the page has one (Firefox's reader view), and
 * Turndown writes Markdown (docs/decisions.md). A hostile page must not stall the app, so the
 * work runs in a worker thread with a time budget and a heap cap: a page that takes too long
 * costs one worker restart, never the main process.
 */
import { Worker } from 'node:worker_threads';
import { CoreError, cancelledError } from '../../errors.js';

export interface ConvertJob {
  html: Uint8Array;
  /** The answer's Content-Type (its charset decides the decoding; a <meta charset> otherwise). */
  contentType: string;
  /** The page's URL, against which relative links are made absolute. */
  url: string;
  format: 'markdown' | 'text';
  /** Keep only the main article when Readability finds one. */
  readable: boolean;
}

export interface Converted {
  title: string;
  content: string;
  /** Readability found an article and the content is it. */
  article: boolean;
  byline?: string;
  siteName?: string;
  lang?: string;
}

// Plain JavaScript evaluated in the worker (no file to locate after bundling); the libraries are
// loaded relative to this module, as card/sanitize.ts loads jsdom.
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const { createRequire } = process.getBuiltinModule('node:module');
const load = createRequire(workerData.base);
const { JSDOM, VirtualConsole } = load('jsdom');
const { Readability } = load('@mozilla/readability');
const TurndownService = load('turndown');
const DROP = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'link', 'meta'];
const SAFE_LINK = /^(https?:|mailto:)/i;

function absolutise(root) {
  for (const [tag, attr] of [['a', 'href'], ['img', 'src']]) {
    for (const el of root.querySelectorAll(tag + '[' + attr + ']')) {
      const resolved = el[attr];
      if (typeof resolved === 'string' && SAFE_LINK.test(resolved)) el.setAttribute(attr, resolved);
      else el.removeAttribute(attr);
    }
  }
}

function tidy(text) {
  return text.replace(/\\r\\n?/g, '\\n').replace(/[ \\t]+\\n/g, '\\n').replace(/\\n{3,}/g, '\\n\\n').trim();
}

function convert(job) {
  const dom = new JSDOM(Buffer.from(job.html), { url: job.url, contentType: job.contentType, virtualConsole: new VirtualConsole() });
  const doc = dom.window.document;
  for (const el of doc.querySelectorAll(DROP.join(','))) el.remove();
  const title = (doc.title || '').trim();
  let root = doc.body || doc.documentElement;
  let info = { article: false };
  if (job.readable) {
    try {
      const parsed = new Readability(doc.cloneNode(true)).parse();
      if (parsed && parsed.content && (parsed.textContent || '').trim().length >= 200) {
        root = JSDOM.fragment(parsed.content);
        info = { article: true, byline: parsed.byline || undefined, siteName: parsed.siteName || undefined, lang: parsed.lang || undefined };
      }
    } catch {
      // A page Readability cannot take apart is converted whole.
    }
  }
  if (!root) return { title, content: '', ...info };
  absolutise(root);
  let content;
  if (job.format === 'text') content = tidy(root.textContent || '');
  else {
    try {
      const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
      content = tidy(turndown.turndown(root));
    } catch (e) {
      // Nesting deeper than the converter's recursion: the text, without its markup, is still worth having.
      if (!(e instanceof RangeError)) throw e;
      content = tidy(root.textContent || '');
    }
  }
  return { title, content, ...info };
}

parentPort.postMessage({ ready: true });
parentPort.on('message', ({ id, job }) => {
  try {
    parentPort.postMessage({ id, result: convert(job) });
  } catch (e) {
    parentPort.postMessage({ id, error: String((e && e.message) || e) });
  }
});
`;

/** How long one page may take to convert. */
export const CONVERT_BUDGET_MS = 20_000;

interface Pending {
  id: number;
  job: ConvertJob;
  signal: AbortSignal;
  resolve: (c: Converted) => void;
  reject: (e: unknown) => void;
  timer?: NodeJS.Timeout;
  onAbort?: () => void;
}

/** One worker, one page at a time; a page over budget or cancelled ends the worker, and the next page starts a new one. */
export class HtmlConverter {
  private worker: Worker | undefined;
  private readonly queue: Pending[] = [];
  private current: Pending | undefined;
  private nextID = 1;
  /** The worker has loaded its libraries: budgets start from here, so a slow first load costs none of them. */
  private ready = false;

  constructor(private readonly budgetMs = CONVERT_BUDGET_MS) {}

  convert(job: ConvertJob, signal: AbortSignal): Promise<Converted> {
    if (signal.aborted) return Promise.reject(cancelledError());
    return new Promise<Converted>((resolve, reject) => {
      const pending: Pending = { id: this.nextID++, job, signal, resolve, reject };
      pending.onAbort = () => this.fail(pending, cancelledError());
      signal.addEventListener('abort', pending.onAbort, { once: true });
      this.queue.push(pending);
      this.pump();
    });
  }

  async close(): Promise<void> {
    for (const p of [...(this.current ? [this.current] : []), ...this.queue.splice(0)]) {
      this.settle(p);
      p.reject(new CoreError('CANCELLED', 'the HTML converter was shut down'));
    }
    this.current = undefined;
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { base: import.meta.url }, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    this.ready = false;
    worker.on('message', (reply: { id: number; ready?: true; result?: Converted; error?: string }) => {
      if (reply.ready) {
        if (worker !== this.worker) return;
        this.ready = true;
        if (this.current) this.startBudget(this.current);
        return;
      }
      const p = this.current;
      if (worker !== this.worker || !p || p.id !== reply.id) return;
      this.current = undefined;
      this.settle(p);
      if (reply.error !== undefined) p.reject(new CoreError('UPSTREAM_ERROR', `the page could not be converted: ${reply.error}`));
      else p.resolve(reply.result!);
      this.pump();
    });
    const died = (err?: Error) => {
      if (worker !== this.worker) return;
      this.worker = undefined;
      const p = this.current;
      this.current = undefined;
      if (p) {
        this.settle(p);
        const oom = (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
        p.reject(
          new CoreError(
            'UPSTREAM_ERROR',
            oom ? 'the page needs more than 256 MB to convert; fetch it with format "html"' : `the HTML converter stopped${err ? `: ${err.message}` : ''}`,
          ),
        );
      }
      this.pump();
    };
    worker.on('error', died);
    worker.on('exit', () => died());
    this.worker = worker;
    return worker;
  }

  private pump(): void {
    if (this.current) return;
    const p = this.queue.shift();
    if (!p) {
      this.worker?.unref();
      return;
    }
    this.current = p;
    const worker = this.ensureWorker();
    worker.ref();
    if (this.ready) this.startBudget(p);
    else {
      // Loading jsdom in a fresh worker takes a second or more on a busy machine; it has a bound of its own.
      p.timer = setTimeout(() => this.fail(p, new CoreError('TIMEOUT', 'the HTML converter did not start within 60 s')), 60_000);
    }
    worker.postMessage({ id: p.id, job: p.job });
  }

  private startBudget(p: Pending): void {
    if (p.timer) clearTimeout(p.timer);
    p.timer = setTimeout(
      () =>
        this.fail(p, new CoreError('TIMEOUT', `converting the page took longer than ${this.budgetMs / 1000} s and was stopped; fetch it with format "html"`)),
      this.budgetMs,
    );
  }

  private settle(p: Pending): void {
    if (p.timer) clearTimeout(p.timer);
    if (p.onAbort) p.signal.removeEventListener('abort', p.onAbort);
  }

  private fail(p: Pending, error: unknown): void {
    const queued = this.queue.indexOf(p);
    if (queued >= 0) this.queue.splice(queued, 1);
    else if (this.current === p) {
      this.current = undefined;
      const w = this.worker;
      this.worker = undefined;
      void w?.terminate();
    } else return;
    this.settle(p);
    p.reject(error);
    this.pump();
  }
}
