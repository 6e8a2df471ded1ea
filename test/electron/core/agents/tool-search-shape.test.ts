import { describe, expect, it } from 'vitest';
import { queryShape, toolShape, ToolShape } from '../../../../electron/core/agents/tool-search/shape.js';
import type { ToolSearchEntry } from '../../../../electron/core/agents/tool-search/entry.js';

const tool = (name: string, title: string, argNames: string[], description = title): ToolSearchEntry => ({
  name,
  title,
  description,
  argNames,
  argDescriptions: [],
  tags: [],
  bundle: 'b',
  calls: 0,
});

describe('operation and task shapes (what tells near-duplicate operations apart)', () => {
  it('knows a collection operation by its paging arguments and by a title that says list', () => {
    const list = toolShape(tool('get-v3-projects-id-issues', 'Get a list of project issues', ['id', 'state', 'page', 'per_page']));
    expect(list.flags & ToolShape.Pages).toBeTruthy();
    expect(list.flags & ToolShape.CollectionText).toBeTruthy();
    expect(list.flags & ToolShape.EndsWithParameter).toBe(0);
    const one = toolShape(tool('get-v3-projects-id-issues-issue-id', 'Get a single project issue', ['id', 'issue_id']));
    expect(one.flags & (ToolShape.Pages | ToolShape.CollectionText)).toBe(0);
    expect(one.flags & ToolShape.EndsWithParameter).toBeTruthy();
    expect(one.oneThingArgs).toBe(2);
    expect(toolShape(tool('get-suppression-bounces-email', 'Retrieve a Bounce', ['email'])).flags & ToolShape.EndsWithParameter).toBeTruthy();
  });

  it('flags deprecated operations from the name, title or description', () => {
    expect(toolShape(tool('issue-edit-comment-deprecated', 'Edit a comment', ['id'])).flags & ToolShape.Deprecated).toBeTruthy();
    expect(toolShape(tool('charges', 'Refund', [], 'Deprecated: use refunds.')).flags & ToolShape.Deprecated).toBeTruthy();
    expect(toolShape(tool('post-refunds', 'Create a refund', [])).flags & ToolShape.Deprecated).toBe(0);
  });

  it('reads a question, a request for many and a request for one', () => {
    expect(queryShape('which pods are running in kube-system')).toEqual({ question: true, many: 2, one: false });
    expect(queryShape('status of the vercel deployment dpl_123')).toMatchObject({ question: false, one: true });
    expect(queryShape('list all kubernetes namespaces').many).toBeGreaterThanOrEqual(3);
    expect(queryShape('create an issue').many).toBe(0);
    // Not plurals: status, address, its.
    expect(queryShape('update the status and address').many).toBe(0);
  });
});
