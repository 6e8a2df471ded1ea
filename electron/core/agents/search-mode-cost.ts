/**
 * What a profile in search mode costs an agent: its three tools' definitions and the list's
 * envelope. The tokenizer's count of SEARCH_MODE_TOOLS, written out so that opening the core loads
 * no tokenizer; a test counts it again, so a changed definition fails it until this is updated.
 */
export const SEARCH_MODE_TOKENS = 334;
