/**
 * Filler words of tasks, dropped by the agents' tool search (tool-search/analyze.ts) and by what
 * learns from its queries (tool-search-learning.ts).
 */
/** Words that say nothing about which tool is meant ("what's the weather in Oslo" → weather, oslo). */
export const STOPWORDS = new Set(
  (
    'a an the of for to in on at by with from and or but as into onto via about over per ' +
    'i we our ours us your yours you it its this that these those there here ' +
    'is are be been being was were am do does did done has have had ' +
    'please can could would should will shall may might must ' +
    'how what whats which who whom whose when where why ' +
    's t d ll re ve m some any just also then than so if else ' +
    'want need like let know tell give'
  ).split(' '),
);
