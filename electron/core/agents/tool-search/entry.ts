/** What the ranker reads of a tool and what it answers; tool-search.ts re-exports both. */
export interface ToolSearchEntry {
  /** What the learned field knows the tool by (its toolID); the name when absent. */
  id?: string;
  name: string;
  title: string;
  description: string;
  argNames: string[];
  argDescriptions: string[];
  tags: string[];
  bundle: string;
  calls: number;
}

export interface ToolSearchMatch {
  name: string;
  score: number;
  /** How much of what the query says the tool answers, 0 to 1 (ranker.ts relevance): what the relevance floor compares. */
  relevance: number;
  /** What matched, per field: "description: 'refund', 'charge'; argument: customer_id". */
  why: string;
}
