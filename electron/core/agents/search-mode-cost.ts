/** What a profile in search mode costs an agent: its three tools' definitions and the list's envelope. */
import { LIST_ENVELOPE_TOKENS, countTextTokens } from './context-cost.js';
import { SEARCH_MODE_TOOLS } from './search-mode-tools.js';

export const SEARCH_MODE_TOKENS = SEARCH_MODE_TOOLS.reduce((sum, t) => sum + countTextTokens(JSON.stringify(t)), LIST_ENVELOPE_TOKENS);
