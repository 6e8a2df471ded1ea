/**
 * Compiled argSchema/outputSchema validators, compiled once per tool revision. The key is
 * toolID + modifiedAt; each entry also remembers the schema it was compiled from, so a
 * hand-edited tool.json that kept its modifiedAt is still recompiled (compared by identity
 * first, then by JSON text only when the object changed, e.g. after a reload from disk).
 */
import type { ValidateFunction } from 'ajv';
// lru-cache: the maintained LRU of the Node ecosystem; bounds memory when many tools are called.
import { LRUCache } from 'lru-cache';
import type { ToolFile } from '../../../shared/schemas.js';
import { CoreError } from '../errors.js';
import { makeUserAjv, type AjvInstance } from '../validation.js';

export interface ToolValidators {
  args: ValidateFunction;
  output: ValidateFunction;
}

interface Entry {
  argSchema: unknown;
  outputSchema: unknown;
  argText: string;
  outputText: string;
  result: ToolValidators | CoreError;
}

export class ToolSchemaCache {
  private readonly ajv: AjvInstance = makeUserAjv();
  private readonly cache: LRUCache<string, Entry>;
  /** Compilations done, for tests: a cache hit must not compile again. */
  compilations = 0;

  constructor(maxEntries = 500) {
    this.cache = new LRUCache({ max: maxEntries });
  }

  /** The validators of this revision; throws TOOL_UNAVAILABLE when a schema cannot be compiled. */
  validators(tool: ToolFile): ToolValidators {
    const key = `${tool.toolID}\u0000${tool.modifiedAt}`;
    let entry = this.cache.get(key);
    if (entry && !this.sameSchemas(entry, tool)) entry = undefined;
    if (!entry) {
      entry = this.compileEntry(tool);
      this.cache.set(key, entry);
    }
    if (entry.result instanceof CoreError) throw entry.result;
    return entry.result;
  }

  private sameSchemas(entry: Entry, tool: ToolFile): boolean {
    if (entry.argSchema === tool.argSchema && entry.outputSchema === tool.outputSchema) return true;
    if (JSON.stringify(tool.argSchema) !== entry.argText || JSON.stringify(tool.outputSchema) !== entry.outputText) return false;
    entry.argSchema = tool.argSchema;
    entry.outputSchema = tool.outputSchema;
    return true;
  }

  private compileEntry(tool: ToolFile): Entry {
    const base = {
      argSchema: tool.argSchema,
      outputSchema: tool.outputSchema,
      argText: JSON.stringify(tool.argSchema),
      outputText: JSON.stringify(tool.outputSchema),
    };
    try {
      const args = this.compile(tool.argSchema, 'argSchema');
      const output = this.compile(tool.outputSchema, 'outputSchema');
      return { ...base, result: { args, output } };
    } catch (e) {
      return { ...base, result: e instanceof CoreError ? e : new CoreError('INTERNAL', String(e)) };
    }
  }

  private compile(schema: unknown, name: 'argSchema' | 'outputSchema'): ValidateFunction {
    this.compilations++;
    try {
      return this.ajv.compile(schema as object | boolean);
    } catch (e) {
      throw new CoreError(
        'TOOL_UNAVAILABLE',
        `the tool's ${name} is not a valid JSON Schema (${e instanceof Error ? e.message : String(e)}); fix it in the tool editor`,
        {
          schema: name,
        },
      );
    } finally {
      // The compiled function stands alone; dropping the schema from ajv's registry keeps memory
      // bounded and lets the next revision reuse the same $id.
      if (typeof schema === 'object' && schema !== null) this.ajv.removeSchema(schema as object);
    }
  }
}
