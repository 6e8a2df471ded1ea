/**
 * The ranker's index, built once per set of tools: per (term, tool) the saturated,
 * length-normalised, field-weighted frequency (BM25F), and per tool its terms field by field,
 * which the re-ranker's per-field features read for the few candidates a query keeps. Numbers
 * and flat arrays, not objects per word: a million words of real tool text made the collector
 * the slow part.
 */
import type { ToolSearchEntry } from './entry.js';
import type { Analyzer } from './analyze.js';
import { FIELDS, fieldIndex, K1 } from './fields.js';
import type { Lexicon } from './lexicon.js';
import { type Action, toolAction } from './actions.js';

export interface Postings {
  id: number;
  idf: number;
  docs: Int32Array;
  saturated: Float32Array;
  /** Bit i: the term occurs in FIELDS[i]. */
  fields: Uint16Array;
}

/** Which index-time expansions to make (all by default; the bench turns them off one by one). */
export interface IndexOptions {
  /** The "in other words" field (lexicon doing). */
  expansion?: boolean;
  /** The "parameters mean" field (lexicon parameters). */
  parameters?: boolean;
  /** A bundle's other names in its bundle field (lexicon services). */
  serviceNames?: boolean;
  /** Field weights other than FIELDS' (trials). */
  weights?: Readonly<Record<string, number>>;
}

const NAME = fieldIndex('name');
const TITLE = fieldIndex('title');
const TAG = fieldIndex('tag');
const ARGUMENT = fieldIndex('argument');
const BUNDLE = fieldIndex('bundle');

export class InvertedIndex {
  readonly postings = new Map<string, Postings>();
  readonly count: number;
  termCount = 0;
  /** Tool d's terms are docTerms[docStarts[d] … docStarts[d + 1]), field f ending at fieldEnds[d · F + f]. */
  docTerms = new Int32Array(0);
  readonly docStarts: Int32Array;
  readonly fieldEnds: Int32Array;
  /** Per field, its weight, b and average length. */
  readonly fieldNorms: { weight: number; b: number; average: number }[] = [];
  /** Per tool, the distinct terms of its name and title: headTerms[headStarts[d] … headStarts[d + 1]). */
  headTerms = new Int32Array(0);
  readonly headStarts: Int32Array;
  readonly actions: Uint8Array;
  readonly bundleOf: Int32Array;
  readonly bundleSizes: number[] = [];
  /** Bundle term → the bundles whose name holds it. */
  readonly bundleWords = new Map<string, Set<number>>();

  constructor(
    readonly entries: readonly ToolSearchEntry[],
    private readonly analyzer: Analyzer,
    private readonly lexicon: Lexicon,
    private readonly options: IndexOptions = {},
  ) {
    this.count = entries.length;
    this.docStarts = new Int32Array(this.count + 1);
    this.fieldEnds = new Int32Array(this.count * FIELDS.length);
    this.headStarts = new Int32Array(this.count + 1);
    this.actions = new Uint8Array(this.count);
    this.bundleOf = new Int32Array(this.count);
    this.build();
  }

  private fieldTerms(entry: ToolSearchEntry, bundleTerms: Map<string, string[]>): string[][] {
    const { analyzer, lexicon, options } = this;
    const out: string[][] = FIELDS.map(() => []);
    FIELDS.forEach((field, f) => {
      if ('text' in field) out[f] = analyzer.terms(field.text(entry));
    });
    let bundle = bundleTerms.get(entry.bundle);
    if (!bundle) {
      bundle = out[BUNDLE]!;
      if (options.serviceNames !== false) bundle = [...bundle, ...lexicon.services.expand(bundle)];
      bundleTerms.set(entry.bundle, bundle);
    }
    out[BUNDLE] = bundle;
    FIELDS.forEach((field, f) => {
      if (!('expands' in field)) return;
      if (field.expands === 'doing' && options.expansion !== false) out[f] = lexicon.doing.expand([...out[NAME]!, ...out[TITLE]!, ...out[TAG]!]);
      if (field.expands === 'parameters' && options.parameters !== false) out[f] = lexicon.parameters.expand(out[ARGUMENT]!);
    });
    return out;
  }

  /**
   * Two passes: the first turns each field into term numbers and sums the field lengths, the
   * second weighs each (term, tool) once the average lengths are known.
   */
  private build(): void {
    const { count, entries } = this;
    const fieldCount = FIELDS.length;
    const termIDs = new Map<string, number>();
    const termNames: string[] = [];
    const idOf = (term: string) => {
      let id = termIDs.get(term);
      if (id === undefined) {
        id = termNames.length;
        termIDs.set(term, id);
        termNames.push(term);
      }
      return id;
    };
    const ids: number[] = [];
    const totalLength = new Float64Array(fieldCount);
    const bundleIDs = new Map<string, number>();
    const bundleTerms = new Map<string, string[]>();
    const heads: number[] = [];
    entries.forEach((entry, d) => {
      this.docStarts[d] = ids.length;
      const fieldTerms = this.fieldTerms(entry, bundleTerms);
      fieldTerms.forEach((terms, f) => {
        for (const term of terms) ids.push(idOf(term));
        this.fieldEnds[d * fieldCount + f] = ids.length;
        totalLength[f]! += terms.length;
      });
      const nameTerms = fieldTerms[NAME]!;
      const titleTerms = fieldTerms[TITLE]!;
      for (const id of new Set([...nameTerms, ...titleTerms].map(idOf))) heads.push(id);
      this.headStarts[d + 1] = heads.length;
      this.actions[d] = toolAction(nameTerms, titleTerms) as Action;
      let bundle = bundleIDs.get(entry.bundle);
      if (bundle === undefined) {
        bundle = this.bundleSizes.length;
        bundleIDs.set(entry.bundle, bundle);
        this.bundleSizes.push(0);
        for (const term of fieldTerms[BUNDLE]!) this.bundleWords.set(term, (this.bundleWords.get(term) ?? new Set()).add(bundle));
      }
      this.bundleSizes[bundle]!++;
      this.bundleOf[d] = bundle;
    });
    this.docStarts[count] = ids.length;
    this.docTerms = Int32Array.from(ids);
    this.headTerms = Int32Array.from(heads);
    this.termCount = termNames.length;
    FIELDS.forEach((field, f) => {
      const weight = this.options.weights?.[field.label] ?? field.weight;
      this.fieldNorms.push({ weight, b: field.b, average: Math.max(1, totalLength[f]! / Math.max(1, count)) });
    });

    const postingDocs: number[][] = termNames.map(() => []);
    const postingWeights: number[][] = termNames.map(() => []);
    const postingFields: number[][] = termNames.map(() => []);
    const weight = new Float64Array(termNames.length);
    const fields = new Uint16Array(termNames.length);
    const touched: number[] = [];
    for (let d = 0; d < count; d++) {
      let start = this.docStarts[d]!;
      for (let f = 0; f < fieldCount; f++) {
        const end = this.fieldEnds[d * fieldCount + f]!;
        const norm = this.lengthNorm(f, end - start);
        for (let i = start; i < end; i++) {
          const id = this.docTerms[i]!;
          if (weight[id] === 0) touched.push(id);
          weight[id]! += norm;
          fields[id]! |= 1 << f;
        }
        start = end;
      }
      for (const id of touched) {
        postingDocs[id]!.push(d);
        postingWeights[id]!.push(weight[id]! / (K1 + weight[id]!));
        postingFields[id]!.push(fields[id]!);
        weight[id] = 0;
        fields[id] = 0;
      }
      touched.length = 0;
    }
    termNames.forEach((term, id) => {
      const df = postingDocs[id]!.length;
      this.postings.set(term, {
        id,
        idf: Math.log(1 + (count - df + 0.5) / (df + 0.5)),
        docs: Int32Array.from(postingDocs[id]!),
        saturated: Float32Array.from(postingWeights[id]!),
        fields: Uint16Array.from(postingFields[id]!),
      });
    });
  }

  /** What one occurrence in field f of a tool whose field has `length` terms adds to tf̃. */
  lengthNorm(f: number, length: number): number {
    const { weight, b, average } = this.fieldNorms[f]!;
    return weight / (1 - b + (b * length) / average);
  }
}
