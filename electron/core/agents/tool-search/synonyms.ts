/**
 * Words people use for the same intent, as groups of plain words (stemmed when the table is
 * built). A query word also matches the other words of its groups, at SYNONYM_WEIGHT, so
 * "fetch" finds "get" and "retrieve" but a tool that says "fetch" still wins. Kept small and
 * generic — verbs of CRUD and messaging, common abbreviations — never tuned to one query.
 */
import { stem } from './stem.js';

export const SYNONYM_WEIGHT = 0.3;

const GROUPS: readonly string[] = [
  // verbs
  'get fetch retrieve read show view display obtain return',
  'list enumerate browse show all',
  'create add new make insert register open post',
  'delete remove destroy erase drop purge trash',
  'cancel abort revoke void terminate stop',
  'update edit change modify patch set rename replace alter',
  'send post publish deliver dispatch notify',
  'search find lookup query filter discover',
  'upload put attach',
  'download export',
  'start run launch execute trigger begin',
  'invite add',
  'check verify validate test',
  'translate convert',
  // nouns and abbreviations
  'repo repository',
  'pr pull',
  'issue ticket bug',
  'email mail e-mail',
  'message msg',
  'user member account person people',
  'contact person people',
  'file document doc',
  'folder directory dir',
  'image picture photo pic img',
  'invoice bill',
  'payment charge pay',
  'customer client',
  'subscription plan sub',
  'weather forecast',
  'song track',
  'meeting meet',
  'calendar schedule',
  'organization org team',
  'configuration config settings',
  'database db',
  'information info details',
  'statistics stats metrics',
  'environment env',
  'authenticated my me mine self current',
  'number num phone',
  'address location place',
];

/** term → the other terms of its groups. */
export function synonymTable(): ReadonlyMap<string, readonly string[]> {
  return tableOfGroups(GROUPS.map((group) => group.split(' ').map((w) => stem(w.replace(/-/g, '')))));
}

/** term → the other terms of its groups, for groups of terms (stemmed as the ranker stems). */
export function tableOfGroups(groups: readonly (readonly string[])[]): ReadonlyMap<string, readonly string[]> {
  const table = new Map<string, Set<string>>();
  for (const group of groups) {
    const terms = [...new Set(group)];
    for (const term of terms) {
      const others = table.get(term) ?? new Set<string>();
      for (const other of terms) if (other !== term) others.add(other);
      table.set(term, others);
    }
  }
  return new Map([...table].map(([term, others]) => [term, [...others]]));
}
