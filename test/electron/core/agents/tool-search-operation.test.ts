import { describe, expect, it } from 'vitest';
import { queryOperation, toolOperation, ToolOperations } from '../../../../electron/core/agents/tool-search/operation.js';
import { createAnalyzer } from '../../../../electron/core/agents/tool-search/analyze.js';
import { FEATURE, FEATURE_COUNT } from '../../../../electron/core/agents/tool-search/features.js';
import type { ToolSearchEntry } from '../../../../electron/core/agents/tool-search/entry.js';

const analyzer = createAnalyzer();
const tool = (name: string, argNames: string[] = [], bundle = 'b'): ToolSearchEntry => ({
  name,
  title: name,
  description: '',
  argNames,
  argDescriptions: [],
  tags: [],
  bundle,
  calls: 0,
});

describe("operation choice (what tells an API's look-alike operations apart)", () => {
  it('reads the thing an operation acts on, and whether its name writes it as one or many', () => {
    expect(toolOperation(tool('get-feature-flags', ['projectKey', 'limit']), analyzer)).toMatchObject({
      object: 'flag',
      objectPlural: true,
      pathParameters: 0,
    });
    expect(toolOperation(tool('get-feature-flag', ['projectKey', 'featureFlagKey']), analyzer)).toMatchObject({ object: 'flag', objectPlural: false });
    // A verb in the middle (operation ids) and a bundle's prefix are not what it acts on.
    expect(toolOperation(tool('repos-get', ['owner', 'repo']), analyzer)).toMatchObject({ object: 'repo', objectPlural: true, depth: 1 });
    expect(toolOperation(tool('aws-s3_list-buckets', [], 'aws-s3'), analyzer)).toMatchObject({ object: 'bucket', objectPlural: true });
  });

  it('counts path parameters and resource depth, and reads version marks', () => {
    const member = toolOperation(tool('patch-lists-id-members-id', ['list_id', 'subscriber_hash']), analyzer);
    expect(member).toMatchObject({ object: 'member', pathParameters: 2, depth: 2 });
    const status = toolOperation(tool('read-core-v1-node-status', ['name']), analyzer);
    expect(status).toMatchObject({ depth: 3, version: 1, unstable: false });
    expect(toolOperation(tool('read-core-v1-node', ['name']), analyzer).depth).toBe(2);
    expect(toolOperation(tool('list-resource-v1alpha2-pod-scheduling-context'), analyzer)).toMatchObject({ unstable: true });
    expect(toolOperation(tool('list-resource-v1alpha2-pod-scheduling-context'), analyzer).version).toBeLessThan(1);
  });

  it('reads how a task writes each word (one or many) and whether it asks for the details of one', () => {
    const text = 'show the details of the flags';
    const q = queryOperation(text, analyzer.words(text));
    expect(q.details).toBe(true);
    expect(q.plural.get('flag')).toBe(true);
    expect(queryOperation('list the flags', analyzer.words('list the flags')).details).toBe(false);
    // Not plurals.
    const s = 'update the status and address';
    expect([...queryOperation(s, analyzer.words(s)).plural.values()].some(Boolean)).toBe(false);
  });

  it('writes whether the task and the operation agree on one or many, and marks an older version of the same API', () => {
    const entries = [tool('get-feature-flags', ['limit']), tool('get-feature-flag', ['key']), tool('get-v1-users', [], 'x'), tool('get-v2-users', [], 'x')];
    const ops = new ToolOperations(entries, analyzer);
    const row = new Float32Array(FEATURE_COUNT);
    const text = 'show the flag new-search';
    const q = queryOperation(text, analyzer.words(text));
    ops.fill(row, 0, q, false, false);
    expect(row[FEATURE.objectNumberAgrees]).toBe(-1);
    ops.fill(row, 1, q, false, false);
    expect(row[FEATURE.objectNumberAgrees]).toBe(1);
    ops.fill(row, 2, q, false, false);
    expect(row[FEATURE.objectNumberAgrees]).toBe(0);
    expect(row[FEATURE.toolOlderVersion]).toBe(1);
    ops.fill(row, 3, q, false, false);
    expect(row[FEATURE.toolOlderVersion]).toBe(0);
  });
});
